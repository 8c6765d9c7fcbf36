import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { PIX_API_CALLER, PspCaller } from './pix-api-billings';
import { PixApiCobrConfig } from './pix-api-cobr.config';
import { PspCallbackRegistrar } from './psp-callback-registrar';

/** The PUTs of Pix Automático's callbacks, in order. */
const PUTS = [
  ['/webhookrec', 'putWebhookRec'],
  ['/webhookcobr', 'putWebhookCobr'],
] as const;

/**
 * Registers this service's Pix Automático callback URL (pix-api only): `PUT /webhookrec` and
 * `PUT /webhookcobr` with `{webhookUrl}` (PIX_API_WEBHOOK_URL, default this server's
 * `/provider/pix-api`; the PSP appends `/rec` and `/cobr`), when and as often as
 * {@link PspCallbackRegistrar} says.
 */
@Injectable()
export class PixApiWebhookRegistrar extends PspCallbackRegistrar {
  constructor(@Inject(PIX_API_CALLER) psp: PspCaller, config: PixApiCobrConfig, jobs: PeriodicJobs, adapterHost: HttpAdapterHost) {
    const put = async (webhookUrl: string) => {
      for (const [path, operation] of PUTS) await psp.call({ operation, method: 'PUT', path, body: { webhookUrl }, idempotent: true });
    };
    super(
      {
        name: 'pix-api-webhooks',
        label: 'PSP callbacks',
        registered: '/rec and /cobr',
        configuredUrl: config.webhookUrl,
        enabled: config.enabled,
        put,
      },
      jobs,
      adapterHost,
    );
  }
}
