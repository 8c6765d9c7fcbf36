import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { PixApiCallbackErrors } from './pix-api-callbacks.errors';
import { PixApiCallbacks } from './pix-api-callbacks';

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const ID_REC = /^[a-zA-Z0-9]{29}$/;
const MAX_ITEMS = 1000;

/** The ids a callback body names (`recs[].idRec` or `cobsr[].txid`); 400 when it is not the standard's shape. */
export function callbackIds(body: unknown, list: 'recs' | 'cobsr'): string[] {
  const items = (body as Record<string, unknown> | null)?.[list];
  if (!Array.isArray(items) || items.length > MAX_ITEMS)
    throw PixApiCallbackErrors.error('invalid_callback', `The body must be {"${list}": [ … ]} with at most ${MAX_ITEMS} items`);
  const key = list === 'recs' ? 'idRec' : 'txid';
  const shape = list === 'recs' ? ID_REC : TXID;
  const details: { field: string; message: string }[] = [];
  const ids = items.map((it, i) => {
    const v = (it as Record<string, unknown> | null)?.[key];
    if (typeof v !== 'string' || !shape.test(v)) details.push({ field: `${list}[${i}].${key}`, message: `must match ${shape.source}` });
    return v as string;
  });
  if (details.length) throw PixApiCallbackErrors.error('invalid_callback', 'The callback has invalid items', { details });
  return ids;
}

/**
 * Inbound: the PSP's API Pix callbacks (it appends `/rec` and `/cobr` to the registered
 * webhookUrl). Not a caller route. A callback is taken as a trigger: its ids are jobs on the queue
 * (one statement) and the answer goes out at once; each job reads each entity back from the PSP
 * (`GET /rec/{idRec}`, `GET /cobr/{txid}`) and applies that state, so a forged, repeated or
 * out-of-order callback changes nothing by itself. Protect the route with mTLS at the ingress
 * (see the Pix Automático guide).
 */
@ApiTags('provider')
@Controller('provider/pix-api')
export class PixApiCallbacksController {
  constructor(private readonly callbacks: PixApiCallbacks) {}

  @Post('rec')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receivePixApiRecCallback',
    summary: "API Pix: the PSP's recurrence callback ({recs:[…]}, from PUT /webhookrec)",
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['recs'],
      properties: { recs: { type: 'array', items: { type: 'object', required: ['idRec'], properties: { idRec: { type: 'string' } } } } },
    },
  })
  @ApiOkResponse({ schema: { type: 'object', properties: { received: { type: 'integer', example: 1 } } } })
  @ApiErrors([400, 'invalid_callback', 'Not {recs:[…]} with valid idRec'])
  async rec(@Body() body: unknown) {
    const ids = callbackIds(body, 'recs');
    await this.callbacks.accept('rec', ids);
    return { received: ids.length };
  }

  @Post('cobr')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receivePixApiCobrCallback',
    summary: "API Pix: the PSP's recurring-billing callback ({cobsr:[…]}, from PUT /webhookcobr)",
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['cobsr'],
      properties: { cobsr: { type: 'array', items: { type: 'object', required: ['txid'], properties: { txid: { type: 'string' } } } } },
    },
  })
  @ApiOkResponse({ schema: { type: 'object', properties: { received: { type: 'integer', example: 1 } } } })
  @ApiErrors([400, 'invalid_callback', 'Not {cobsr:[…]} with valid txid'])
  async cobr(@Body() body: unknown) {
    const ids = callbackIds(body, 'cobsr');
    await this.callbacks.accept('cobr', ids);
    return { received: ids.length };
  }
}
