import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { defineErrors } from '../../../kernel/platform/errors/app-error';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { PixApiCobConfig } from './pix-api-cob.config';
import { PixApiReceivedPixWorker } from './pix-api-received-pix.worker';

export const PixApiPixCallbackErrors = defineErrors({ invalid_callback: 400, pix_api_disabled: 404 });

const E2E = /^[a-zA-Z0-9]{32}$/;
const MAX_ITEMS = 1000;

/** The endToEndIds a `{pix:[…]}` body names; 400 when it is not the standard's shape. */
export function endToEndIds(body: unknown): string[] {
  const items = (body as Record<string, unknown> | null)?.pix;
  if (!Array.isArray(items) || items.length > MAX_ITEMS)
    throw PixApiPixCallbackErrors.error('invalid_callback', `The body must be {"pix": [ … ]} with at most ${MAX_ITEMS} items`);
  const details: { field: string; message: string }[] = [];
  const ids = items.map((it, i) => {
    const v = (it as Record<string, unknown> | null)?.endToEndId;
    if (typeof v !== 'string' || !E2E.test(v)) details.push({ field: `pix[${i}].endToEndId`, message: `must match ${E2E.source}` });
    return v as string;
  });
  if (details.length) throw PixApiPixCallbackErrors.error('invalid_callback', 'The callback has invalid items', { details });
  return ids;
}

/**
 * Inbound: the PSP's Pix callback (`PUT /webhook/{chave}` registered `{webhookUrl}`; the PSP
 * POSTs `{pix:[…]}` to `{webhookUrl}/pix`). Not a caller route. Each endToEndId is recorded once
 * (one statement; a repeated one finds its row and changes nothing) and the answer goes out at
 * once; a worker then reads each Pix back (`GET /pix/{e2eid}`) and applies it to the link payment
 * or boleto its txid names, so a forged or repeated callback changes nothing by itself. Protect
 * the route with mutual TLS at the ingress (see the links guide).
 */
@ApiTags('provider')
@Controller('provider/pix-api')
export class PixApiPixCallbacksController {
  constructor(
    private readonly received: PixApiReceivedPixWorker,
    private readonly config: PixApiCobConfig,
  ) {}

  @Post('pix')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receivePixApiPixCallback',
    summary: "API Pix: the PSP's received-Pix callback ({pix:[…]}, from PUT /webhook/{chave})",
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['pix'],
      properties: {
        pix: {
          type: 'array',
          items: { type: 'object', required: ['endToEndId'], properties: { endToEndId: { type: 'string' }, txid: { type: 'string' } } },
        },
      },
    },
  })
  @ApiOkResponse({ schema: { type: 'object', properties: { received: { type: 'integer', example: 1 } } } })
  @ApiErrors([400, 'invalid_callback', 'Not {pix:[…]} with valid endToEndId'], [404, 'pix_api_disabled', 'BANK_PROVIDER is not pix-api'])
  async pix(@Body() body: unknown) {
    if (!this.config.enabled)
      throw PixApiPixCallbackErrors.error('pix_api_disabled', 'This service does not use API Pix (BANK_PROVIDER=service)');
    const ids = endToEndIds(body);
    await this.received.accept(ids);
    return { received: ids.length };
  }
}

declare module '../../../kernel/platform/errors/app-error' {
  /** PixApiPixCallbackErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof PixApiPixCallbackErrors.table, true> {}
}
