import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { PIX_API_CALLER, PspCaller } from './pix-api-billings';
import { PixApiCobrConfig } from './pix-api-cobr.config';
import { PspCallbackRegistrar } from './psp-callback-registrar';

/**
 * Registers this service's Pix Automático callback URL (pix-api only): `PUT /webhookrec` and
 * `PUT /webhookcobr` with `{webhookUrl}` (PIX_API_WEBHOOK_URL, default this server's
 * `/provider/pix-api`), when and as often as {@link PspCallbackRegistrar} says.
 */
@Injectable()
export class PixApiWebhookRegistrar implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly registrar: PspCallbackRegistrar;

  constructor(
    @Inject(PIX_API_CALLER) psp: PspCaller,
    private readonly config: PixApiCobrConfig,
    jobs: PeriodicJobs,
    adapterHost: HttpAdapterHost,
  ) {
    this.registrar = new PspCallbackRegistrar(
      {
        name: 'pix-api-webhooks',
        label: 'PSP callbacks',
        registered: '/rec and /cobr',
        configuredUrl: config.webhookUrl,
        put: async (webhookUrl) => {
          for (const [path, operation] of [
            ['/webhookrec', 'putWebhookRec'],
            ['/webhookcobr', 'putWebhookCobr'],
          ]) {
            await psp.call({ operation, method: 'PUT', path, body: { webhookUrl }, idempotent: true });
          }
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

  /** Both PUTs once per process (a call during the first one joins it; a failed one is tried again later). */
  register(): Promise<boolean> {
    return this.registrar.register();
  }
}
