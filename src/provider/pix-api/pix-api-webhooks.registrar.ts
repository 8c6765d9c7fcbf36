import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { selfOrigin, whenListening } from '../../../kernel/platform/http/self-origin';
import { PIX_API_CALLER, PspCaller } from './pix-api-billings';
import { Inject } from '@nestjs/common';
import { PixApiCobrConfig } from './pix-api-cobr.config';

/**
 * Registers this service's callback URL at the PSP at start-up (pix-api only): `PUT /webhookrec`
 * and `PUT /webhookcobr` with `{webhookUrl}` (PIX_API_WEBHOOK_URL, default this server's
 * `/provider/pix-api`), as soon as the server listens. PUT is idempotent at the PSP, so every
 * replica and every restart may do it; until both succeed (PSP down) it tries again every minute.
 */
@Injectable()
export class PixApiWebhookRegistrar implements OnModuleInit {
  private readonly logger = new Logger('PixApiWebhooks');
  private registered: Promise<boolean> | null = null;

  constructor(
    @Inject(PIX_API_CALLER) private readonly psp: PspCaller,
    private readonly config: PixApiCobrConfig,
    private readonly jobs: PeriodicJobs,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    if (!this.config.enabled) return;
    this.jobs.schedule({ name: 'pix-api-webhooks', everyMs: 60_000, run: () => this.register() });
    // not the job's first pass: that starts when the database is ready, which may be before `listen`
    void whenListening(this.adapterHost)
      .then(() => this.register())
      .catch((e) => this.logger.warn(`PSP callbacks not registered yet (tried again in a minute): ${e?.message ?? e}`));
  }

  webhookUrl(): string {
    return this.config.webhookUrl ?? `${selfOrigin(this.adapterHost)}/provider/pix-api`;
  }

  /** Both PUTs once per process (a call during the first one joins it; a failed one is tried again later). */
  register(): Promise<boolean> {
    this.registered ??= this.put().catch((e) => {
      this.registered = null;
      throw e;
    });
    return this.registered;
  }

  private async put(): Promise<boolean> {
    const webhookUrl = this.webhookUrl();
    for (const kind of ['webhookrec', 'webhookcobr']) {
      await this.psp.call({
        operation: `put${kind === 'webhookrec' ? 'WebhookRec' : 'WebhookCobr'}`,
        method: 'PUT',
        path: `/${kind}`,
        body: { webhookUrl },
        idempotent: true,
      });
    }
    this.logger.log(`PSP callbacks registered at ${webhookUrl}/rec and /cobr`);
    return true;
  }
}
