import { Controller, Get, Param, Res, UseGuards } from '@nestjs/common';
import { ApiFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { DataSource } from 'typeorm';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { SandboxErrors } from '../sandbox.errors';
import { SandboxEnabledGuard } from '../sandbox-enabled.guard';
import * as sql from '../../../kernel/platform/database/sql';

/**
 * A recurrence location of the sandbox PSP (`POST /locrec`), as the payer's bank app opens it
 * when the payer reads the QR (Jornada 2): it goes to the sandbox bank's authorization page of
 * the recurrence linked to it.
 */
@ApiTags('sandbox')
@ApiErrors([404, 'sandbox_recurrence_not_found', 'No recurrence is linked to this location (or the sandbox is disabled: sandbox_disabled)'])
@UseGuards(SandboxEnabledGuard)
@Controller('sandbox/bank/locrec')
export class SandboxPspLocationsController {
  constructor(private readonly ds: DataSource) {}

  @Get(':token')
  @ApiOperation({
    operationId: 'sandboxRecurrenceLocation',
    summary: 'The location (QR) of an API Pix recurrence: goes to its authorization page',
  })
  @ApiFoundResponse({ description: 'Location: the authorization page of the recurrence' })
  async open(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const [l] = await sql.rows(this.ds, `SELECT id_rec FROM sandbox_psp_locrec WHERE token = $1`, [token]);
    if (!l?.id_rec) throw SandboxErrors.error('sandbox_recurrence_not_found', 'No recurrence is linked to this location');
    void reply.redirect(`/sandbox/bank/authorize/${encodeURIComponent(l.id_rec)}`, 302);
  }
}
