import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../../gateway/tenant-context';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { ApiError, ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { DeliveryDetailDto, DeliveryDto, DeliveryPageDto, DeliveryQueryDto } from '../dto/delivery.dto';
import { WebhookDeliveriesService } from './deliveries.service';

const NOT_FOUND: ApiError = [404, 'delivery_not_found', 'No such delivery for this tenant'];

@ApiTags('webhooks')
@TenantRoute()
@Controller('v1/banking/webhooks/deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Get()
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log, newest first, filtered by status and event type',
    description:
      'Finished deliveries are kept WEBHOOK_RETENTION_DAYS (default 30) after their event, then deleted with it; a PENDING one is kept until it finishes.',
  })
  @ApiOkResponse({ type: DeliveryPageDto })
  @ApiErrors(400)
  list(@CurrentTenant() t: TenantContext, @Query() q: DeliveryQueryDto) {
    return this.deliveries.list(t.tenantId, q);
  }

  @Get(':deliveryId')
  @ApiOperation({
    operationId: 'getWebhookDelivery',
    summary: 'One delivery with every attempt (status code, latency, error, first 1 KiB of the answer)',
  })
  @ApiOkResponse({ type: DeliveryDetailDto })
  @ApiErrors(NOT_FOUND)
  get(@CurrentTenant() t: TenantContext, @Param('deliveryId') id: string): Promise<DeliveryDetailDto> {
    return this.deliveries.get(t.tenantId, id);
  }

  @Post(':deliveryId/replay')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'replayWebhookDelivery',
    summary: "Send the event again: a new delivery to the domain's current endpoint, due at once, with a fresh attempt schedule",
  })
  @ApiAcceptedResponse({ type: DeliveryDto, description: 'The new delivery (replayOf names the original)' })
  @ApiErrors(NOT_FOUND, [
    409,
    'delivery_pending',
    'The delivery is still scheduled (`delivery_pending`) or no endpoint is active for its domain (`no_active_endpoint`)',
  ])
  replay(@CurrentTenant() t: TenantContext, @Param('deliveryId') id: string): Promise<DeliveryDto> {
    return this.deliveries.replay(t.tenantId, id);
  }

  @Post(':deliveryId/retry-now')
  @HttpCode(202)
  @ApiOperation({
    operationId: 'retryWebhookDeliveryNow',
    summary: 'Send a waiting delivery now instead of at its next scheduled attempt (after your receiver is back)',
    description:
      'Only a PENDING delivery is hurried: its next attempt becomes due now and the delivery worker sends it within a poll interval, as one attempt of its schedule (a failure is retried on the usual backoff). A delivery is never sent twice at once: one being sent at this moment answers `delivery_in_flight`. A finished delivery (DELIVERED, DEAD, CANCELLED, NO_ENDPOINT) answers `delivery_not_pending`: use replay to send its event again.',
  })
  @ApiAcceptedResponse({ type: DeliveryDto, description: 'The delivery, PENDING with nextAttemptAt now' })
  @ApiErrors(NOT_FOUND, [
    409,
    'delivery_not_pending',
    'The delivery has finished (`delivery_not_pending`: replay it) or is being sent at this moment (`delivery_in_flight`)',
  ])
  retryNow(@CurrentTenant() t: TenantContext, @Param('deliveryId') id: string): Promise<DeliveryDto> {
    return this.deliveries.retryNow(t.tenantId, id);
  }
}
