import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { PixApiClient } from './pix-api-client';
import { PixApiCobConfig } from './pix-api-cob.config';
import { PixApiConfig } from './pix-api.config';
import { PspCallbackRegistrar } from './psp-callback-registrar';

/**
 * Registers this service's callback URL for the receiver's key (pix-api only):
 * `PUT /webhook/{PIX_API_PIX_KEY}` with `{webhookUrl}` (PIX_API_WEBHOOK_URL, default this
 * server's `/provider/pix-api`; the PSP appends `/pix`), when and as often as
 * {@link PspCallbackRegistrar} says.
 */
@Injectable()
export class PixApiPixWebhookRegistrar extends PspCallbackRegistrar {
  constructor(client: PixApiClient, pixApi: PixApiConfig, config: PixApiCobConfig, jobs: PeriodicJobs, adapterHost: HttpAdapterHost) {
    const path = `/webhook/${encodeURIComponent(pixApi.pixKey)}`;
    const put = async (webhookUrl: string) =>
      void (await client.call({ operation: 'putWebhook', method: 'PUT', path, body: { webhookUrl }, idempotent: true }));
    super(
      {
        name: 'pix-api-pix-webhook',
        label: 'PSP Pix webhook',
        registered: '/pix',
        configuredUrl: config.webhookUrl,
        enabled: config.enabled,
        put,
      },
      jobs,
      adapterHost,
    );
  }
}
