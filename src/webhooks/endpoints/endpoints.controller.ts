import { Body, Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../../gateway/tenant-context';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { ApiError, ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import {
  AcquiringWebhookDto,
  AcquiringWebhookWithSecretDto,
  PixAutomaticWebhookDto,
  PixAutomaticWebhookWithKeyDto,
  RegisterAcquiringWebhookDto,
  RegisterPixAutomaticWebhookDto,
} from '../dto/endpoint.dto';
import { RetryPendingDto } from '../dto/delivery.dto';
import { WebhookDeliveriesService } from '../deliveries/deliveries.service';
import { WebhookEndpointsService } from './endpoints.service';

const NOT_FOUND: ApiError = [404, 'webhook_not_found', 'No webhook is registered for this domain'];
const RETRY_PENDING = {
  summary: "Send every waiting delivery of this registration now (after your receiver's outage)",
  description:
    'Each PENDING delivery not being sent at this moment becomes due now; the delivery worker sends them within a poll interval, each as one attempt of its schedule, never two at once. Deliveries being sent right now are left to finish. `scheduled` is 0 when nothing was waiting.',
};
const BAD_URL: ApiError = [
  400,
  'invalid_webhook_url',
  'Invalid fields (`validation_error`) or a URL this deployment does not accept (`invalid_webhook_url`)',
];

@ApiTags('webhooks')
@TenantRoute()
@Controller('v1/banking/webhooks')
export class WebhookEndpointsController {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly deliveries: WebhookDeliveriesService,
  ) {}

  @Put('acquiring')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'registerAcquiringWebhook',
    summary: 'Register (or rotate) the acquiring-domain receiver; answers the HMAC signing secret once',
    description:
      'A second PUT rotates the secret: for the grace period (24 h by default) deliveries also carry `X-Service-Signature-Previous` signed with the previous secret.',
  })
  @ApiOkResponse({ type: AcquiringWebhookWithSecretDto })
  @ApiErrors(BAD_URL)
  registerAcquiring(@CurrentTenant() t: TenantContext, @Body() dto: RegisterAcquiringWebhookDto): Promise<AcquiringWebhookWithSecretDto> {
    return this.endpoints.registerAcquiring(t.tenantId, dto);
  }

  @Get('acquiring')
  @ApiOperation({ operationId: 'getAcquiringWebhook', summary: 'The acquiring-domain registration (never the secret)' })
  @ApiOkResponse({ type: AcquiringWebhookDto })
  @ApiErrors(NOT_FOUND)
  getAcquiring(@CurrentTenant() t: TenantContext): Promise<AcquiringWebhookDto> {
    return this.endpoints.getAcquiring(t.tenantId);
  }

  @Delete('acquiring')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deleteAcquiringWebhook',
    summary: 'Delete the acquiring-domain registration; its pending deliveries are cancelled',
  })
  @ApiNoContentResponse({ description: 'Deleted; the secret is forgotten' })
  @ApiErrors(NOT_FOUND)
  deleteAcquiring(@CurrentTenant() t: TenantContext): Promise<void> {
    return this.endpoints.remove(t.tenantId, 'acquiring');
  }

  @Put('pix-automatic')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'registerPixAutomaticWebhook',
    summary: 'Register (or rotate) the recurring-debit receiver; answers the AES-256-GCM encryptionKey once',
    description:
      'A second PUT issues a new key: for the grace period (24 h by default) bodies stay sealed with the previous key (`keyId` says which), then with the new one.',
  })
  @ApiOkResponse({ type: PixAutomaticWebhookWithKeyDto })
  @ApiErrors(BAD_URL)
  registerPixAutomatic(
    @CurrentTenant() t: TenantContext,
    @Body() dto: RegisterPixAutomaticWebhookDto,
  ): Promise<PixAutomaticWebhookWithKeyDto> {
    return this.endpoints.registerPixAutomatic(t.tenantId, dto);
  }

  @Get('pix-automatic')
  @ApiOperation({ operationId: 'getPixAutomaticWebhook', summary: 'The recurring-debit registration (never the key)' })
  @ApiOkResponse({ type: PixAutomaticWebhookDto })
  @ApiErrors(NOT_FOUND)
  getPixAutomatic(@CurrentTenant() t: TenantContext): Promise<PixAutomaticWebhookDto> {
    return this.endpoints.getPixAutomatic(t.tenantId);
  }

  @Delete('pix-automatic')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'deletePixAutomaticWebhook',
    summary: 'Delete the recurring-debit registration; its pending deliveries are cancelled',
  })
  @ApiNoContentResponse({ description: 'Deleted; the key is forgotten' })
  @ApiErrors(NOT_FOUND)
  deletePixAutomatic(@CurrentTenant() t: TenantContext): Promise<void> {
    return this.endpoints.remove(t.tenantId, 'pix-automatic');
  }

  @Post('acquiring/retry-pending')
  @HttpCode(202)
  @ApiOperation({ operationId: 'retryPendingAcquiringDeliveries', ...RETRY_PENDING })
  @ApiAcceptedResponse({ type: RetryPendingDto })
  @ApiErrors(NOT_FOUND)
  retryPendingAcquiring(@CurrentTenant() t: TenantContext): Promise<RetryPendingDto> {
    return this.deliveries.retryPending(t.tenantId, 'acquiring');
  }

  @Post('pix-automatic/retry-pending')
  @HttpCode(202)
  @ApiOperation({ operationId: 'retryPendingPixAutomaticDeliveries', ...RETRY_PENDING })
  @ApiAcceptedResponse({ type: RetryPendingDto })
  @ApiErrors(NOT_FOUND)
  retryPendingPixAutomatic(@CurrentTenant() t: TenantContext): Promise<RetryPendingDto> {
    return this.deliveries.retryPending(t.tenantId, 'pix-automatic');
  }
}
