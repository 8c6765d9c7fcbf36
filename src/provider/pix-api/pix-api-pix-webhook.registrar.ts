import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
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
export class PixApiPixWebhookRegistrar implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly registrar: PspCallbackRegistrar;

  constructor(
    client: PixApiClient,
    pixApi: PixApiConfig,
    private readonly config: PixApiCobConfig,
    jobs: PeriodicJobs,
    adapterHost: HttpAdapterHost,
  ) {
    this.registrar = new PspCallbackRegistrar(
      {
        name: 'pix-api-pix-webhook',
        label: 'PSP Pix webhook',
        registered: '/pix',
        configuredUrl: config.webhookUrl,
        put: async (webhookUrl) => {
          await client.call({
            operation: 'putWebhook',
            method: 'PUT',
            path: `/webhook/${encodeURIComponent(pixApi.pixKey)}`,
            body: { webhookUrl },
            idempotent: true,
          });
        },
      },
      jobs,
      adapterHost,
    );
  }

  onApplicationBootstrap(): void {
    if (this.config.enabled) this.registrar.start();
  }

  onApplicationShutdown(): void {
    this.registrar.stop();
  }

  webhookUrl(): string {
    return this.registrar.webhookUrl();
  }

  register(): Promise<boolean> {
    return this.registrar.register();
  }
}
