import { Body, Controller, Get, Headers, HttpCode, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { i18nFor } from '../../../kernel/common/i18n';
import { ApiError, ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { ApiHtmlPage } from '../../../kernel/platform/openapi/truth';
import { SandboxEnabledGuard } from '../sandbox-enabled.guard';
import { SandboxConfig } from '../sandbox.config';
import { BankBillingBatchDto, BankCancelBillingDto, BankRecurrenceRequestDto } from './bank-api.dto';
import { ProviderKeyGuard } from './provider-key.guard';
import { Html, SandboxBankPages } from './sandbox-bank.pages';
import { SandboxBankService } from './sandbox-bank.service';

class SandboxRecurrenceStatusDto {
  @ApiProperty({ example: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  recurrenceId: string;
  @ApiProperty({ example: 'ACCEPTED' })
  status: string;
}

class SandboxRecurrenceCreatedDto extends SandboxRecurrenceStatusDto {
  @ApiProperty({ example: 'http://127.0.0.1:3000/sandbox/bank/authorize/0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  authorizationUrl: string;
}

class SandboxBillingResultDto {
  @ApiProperty({ example: 'BL7Q2C4M9XK3T8W1ZP5R6N0D2F4H3J6L' })
  idTx: string;
  @ApiProperty({ example: true })
  accepted: boolean;
  @ApiProperty({ required: false, example: 'RECEIVED' })
  status?: string;
  @ApiProperty({ required: false, example: 'due_date_in_past' })
  reason?: string;
}

class SandboxBillingResultsDto {
  @ApiProperty({ type: [SandboxBillingResultDto] })
  results: SandboxBillingResultDto[];
}

class SandboxBillingStatusDto {
  @ApiProperty({ example: 'BL7Q2C4M9XK3T8W1ZP5R6N0D2F4H3J6L' })
  idTx: string;
  @ApiProperty({ example: 'CANCELLED_RECEIVER' })
  status: string;
}

class SandboxPixLimitsDto {
  @ApiProperty({ description: 'Largest single Pix payment, in cents', example: 1000000 })
  perTransaction: number;
  @ApiProperty({ description: 'Pix total allowed between 06:00 and 20:00, in cents', example: 5000000 })
  daytime: number;
  @ApiProperty({ description: 'Pix total allowed between 20:00 and 06:00, in cents', example: 100000 })
  nighttime: number;
}

class SandboxAccountLimitsDto {
  @ApiProperty({ example: '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10' })
  accountId: string;
  @ApiProperty({ type: SandboxPixLimitsDto })
  pix: SandboxPixLimitsDto;
}

const DISABLED: ApiError = [404, 'sandbox_disabled', 'The sandbox is disabled (or, on pages, no such recurrence)'];

const view = (r: { recurrenceId: string; status: string }) => ({ recurrenceId: r.recurrenceId, status: r.status });

function send(reply: FastifyReply, page: Html): void {
  void reply
    .status(page.status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('vary', 'accept-language')
    .send(page.html);
}

/** The bank's API, as the provider client calls it (`PROVIDER_URL`, key in X-Provider-Key). */
@ApiTags('sandbox')
@ApiHeader({ name: 'X-Provider-Key', required: true, description: 'The shared PROVIDER_API_KEY' })
@ApiErrors([401, 'invalid_provider_key', 'Missing or wrong X-Provider-Key'], DISABLED)
@UseGuards(SandboxEnabledGuard, ProviderKeyGuard)
@Controller('sandbox/bank')
export class SandboxBankApiController {
  constructor(
    private readonly bank: SandboxBankService,
    private readonly config: SandboxConfig,
  ) {}

  @Post('recurrences')
  @ApiOperation({
    operationId: 'sandboxBankCreateRecurrence',
    summary: 'Bank API: register a recurrence awaiting the payer (idempotent per recurrenceId)',
  })
  @ApiCreatedResponse({ type: SandboxRecurrenceCreatedDto })
  @ApiErrors(400)
  async createRecurrence(@Req() req: FastifyRequest, @Body() dto: BankRecurrenceRequestDto) {
    const origin = this.config.publicUrl ?? `${req.protocol}://${req.headers.host}`;
    const r = await this.bank.createRecurrence(dto);
    return { ...view(r), authorizationUrl: `${origin}/sandbox/bank/authorize/${encodeURIComponent(r.recurrenceId)}` };
  }

  @Get('accounts/:accountId/limits')
  @ApiOperation({
    operationId: 'sandboxBankGetAccountLimits',
    summary: 'Bank API: the Pix limits of an account',
    description: 'The sandbox bank answers the same configured limits (SANDBOX_PIX_LIMIT_*_CENTS) for every account.',
  })
  @ApiOkResponse({ type: SandboxAccountLimitsDto })
  getAccountLimits(@Param('accountId') accountId: string): SandboxAccountLimitsDto {
    return { accountId, pix: { ...this.config.pixLimits } };
  }

  @Get('recurrences/:recurrenceId')
  @ApiOperation({ operationId: 'sandboxBankGetRecurrence', summary: 'Bank API: status of a recurrence' })
  @ApiOkResponse({ type: SandboxRecurrenceStatusDto })
  @ApiErrors([404, 'sandbox_recurrence_not_found', 'The bank holds no such recurrence'])
  async getRecurrence(@Param('recurrenceId') id: string) {
    return view(await this.bank.get(id));
  }

  @Post('recurrences/:recurrenceId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sandboxBankCancelRecurrence',
    summary: 'Bank API: the receiver cancels a recurrence and its open billings',
  })
  @ApiOkResponse({ type: SandboxRecurrenceStatusDto })
  @ApiErrors([404, 'sandbox_recurrence_not_found', 'The bank holds no such recurrence'])
  async cancelRecurrence(@Param('recurrenceId') id: string) {
    return view(await this.bank.receiverCancel(id));
  }

  @Post('billings/batch')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sandboxBankSendBillings',
    summary: 'Bank API: receive billings (idempotent per idTx); answers each one accepted or refused',
  })
  @ApiBody({ type: BankBillingBatchDto })
  @ApiOkResponse({ type: SandboxBillingResultsDto })
  @ApiErrors(400)
  async sendBillings(@Body() body: unknown) {
    return { results: await this.bank.receiveBatch(body) };
  }

  @Post('billings/:idTx/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sandboxBankCancelBilling',
    summary: 'Bank API: the receiver cancels a billing (remembered even before the billing arrives)',
  })
  @ApiOkResponse({ type: SandboxBillingStatusDto })
  @ApiErrors(400)
  cancelBilling(@Param('idTx') idTx: string, @Body() dto: BankCancelBillingDto) {
    return this.bank.receiverCancelBilling(idTx, dto.recurrenceId);
  }
}

/** Pages a payer sees at the sandbox bank. */
@ApiTags('sandbox')
@ApiErrors(DISABLED)
@UseGuards(SandboxEnabledGuard)
@Controller('sandbox/bank')
export class SandboxBankPagesController {
  constructor(private readonly pages: SandboxBankPages) {}

  @Get('authorize/:recurrenceId')
  @ApiOperation({
    operationId: 'sandboxAuthorizationPage',
    summary: 'The authorizationUrl page: receiver, amount, periodicity, term; Authorize or Refuse',
  })
  @ApiHtmlPage()
  @ApiOkResponse({ description: 'The HTML page (also for an expired request)' })
  async authorization(@Param('recurrenceId') id: string, @Headers('accept-language') lang: string | undefined, @Res() reply: FastifyReply) {
    send(reply, await this.pages.authorization(i18nFor(lang), id));
  }

  @Post('authorize/:recurrenceId')
  @ApiExcludeEndpoint()
  async decide(
    @Param('recurrenceId') id: string,
    @Body() body: { decision?: string } | undefined,
    @Headers('accept-language') lang: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    send(reply, await this.pages.decide(i18nFor(lang), id, body?.decision));
  }

  @Get('payer/recurrences/:recurrenceId')
  @ApiOperation({ operationId: 'sandboxPayerRecurrencePage', summary: "The payer's view of an automatic Pix in their bank, with Cancel" })
  @ApiHtmlPage()
  @ApiOkResponse({ description: 'The HTML page' })
  async payer(@Param('recurrenceId') id: string, @Headers('accept-language') lang: string | undefined, @Res() reply: FastifyReply) {
    send(reply, await this.pages.payer(i18nFor(lang), id));
  }

  @Post('payer/recurrences/:recurrenceId/cancel')
  @ApiExcludeEndpoint()
  async payerCancel(@Param('recurrenceId') id: string, @Headers('accept-language') lang: string | undefined, @Res() reply: FastifyReply) {
    send(reply, await this.pages.payerCancel(i18nFor(lang), id));
  }
}

/**
 * What the pages do, as HTTP calls for scripts and tests (ARCHITECTURE.md). They take the id the
 * tenant has (on API Pix the bank finds the rec by it) and answer with it.
 */
@ApiTags('sandbox')
@UseGuards(SandboxEnabledGuard)
@ApiErrors([404, 'sandbox_recurrence_not_found', 'The bank holds no such recurrence'], [404, 'sandbox_disabled', 'The sandbox is disabled'])
@Controller('sandbox/recurrences')
export class SandboxPayerController {
  constructor(private readonly bank: SandboxBankService) {}

  @Post(':recurrenceId/approve')
  @HttpCode(200)
  @ApiOperation({ operationId: 'sandboxApproveRecurrence', summary: 'The payer authorizes (as the Authorize button)' })
  @ApiOkResponse({ type: SandboxRecurrenceStatusDto })
  @ApiErrors([409, 'recurrence_not_pending', 'Not PENDING, or `authorization_expired`'])
  async approve(@Param('recurrenceId') id: string) {
    return { recurrenceId: id, status: (await this.bank.approve(id)).status };
  }

  @Post(':recurrenceId/reject')
  @HttpCode(200)
  @ApiOperation({ operationId: 'sandboxRejectRecurrence', summary: 'The payer refuses (as the Refuse button)' })
  @ApiOkResponse({ type: SandboxRecurrenceStatusDto })
  @ApiErrors([409, 'recurrence_not_pending', 'Not PENDING, or `authorization_expired`'])
  async reject(@Param('recurrenceId') id: string) {
    return { recurrenceId: id, status: (await this.bank.reject(id)).status };
  }

  @Post(':recurrenceId/cancel')
  @HttpCode(200)
  @ApiOperation({ operationId: 'sandboxPayerCancelRecurrence', summary: 'The payer cancels an authorized recurrence in their bank' })
  @ApiOkResponse({ type: SandboxRecurrenceStatusDto })
  @ApiErrors([409, 'recurrence_not_cancelable', 'Not ACCEPTED or ACTIVE'])
  async cancel(@Param('recurrenceId') id: string) {
    return { recurrenceId: id, status: (await this.bank.payerCancel(id)).status };
  }
}
