import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { PROVIDER_SIGNATURE_HEADER } from '../../../kernel/common/protocols/provider-events';
import { ProviderEventsService } from './provider-events.service';

class ProviderEventDto {
  @ApiProperty({ example: 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED' })
  eventType: string;
  @ApiProperty({ example: 'BL7Q2C4M9XK3T8W1ZP5R6N0D2F4H' })
  idTx: string;
  @ApiProperty({ required: false, example: '2026-12-01T12:00:00.000Z' })
  occurredAt?: string;
  @ApiProperty({ required: false, example: { recurrenceId: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' } })
  data?: Record<string, unknown>;
}

class ProviderEventAckDto {
  @ApiProperty({ example: true })
  received: boolean;
  @ApiProperty({ enum: ['APPLIED', 'DUPLICATE', 'LATE', 'PARKED', 'UNKNOWN_ENTITY', 'RECORDED'], example: 'APPLIED' })
  outcome: string;
}

/** Inbound: the banking provider tells the service about status changes. Not a caller route. */
@ApiTags('provider')
@Controller('provider/events')
export class ProviderEventsController {
  constructor(private readonly events: ProviderEventsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'receiveProviderEvent', summary: 'Receive a recurring-debit event from the banking provider (HMAC-signed)' })
  @ApiHeader({
    name: 'X-Provider-Signature',
    required: true,
    description: '`sha256=<hex HMAC-SHA256 of the raw body>` with PROVIDER_EVENTS_SECRET',
  })
  @ApiBody({ type: ProviderEventDto })
  @ApiOkResponse({ type: ProviderEventAckDto })
  @ApiErrors(
    [400, 'invalid_event', 'Malformed event'],
    [401, 'invalid_signature', 'Missing or wrong signature'],
    [503, 'events_not_handled', 'Not ready; retry'],
  )
  receive(@Req() req: { rawBody?: Buffer }, @Headers(PROVIDER_SIGNATURE_HEADER) signature: string | undefined, @Body() body: unknown) {
    return this.events.receive(req.rawBody, signature, body);
  }
}
