import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpAdapterHost } from '@nestjs/core';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { selfOrigin, whenListening } from '../../../kernel/platform/http/self-origin';
import { PixApiClient, PixApiRejection } from './pix-api-client';
import { PixApiCobConfig } from './pix-api-cob.config';
import { PixApiConfig } from './pix-api.config';

/**
 * Registers this service's callback URL for the receiver's key at start-up (pix-api only):
 * `PUT /webhook/{PIX_API_PIX_KEY}` with `{webhookUrl}` (PIX_API_WEBHOOK_URL, default this
 * server's `/provider/pix-api`; the PSP appends `/pix`), as soon as the server listens (the PSP
 * drops the callback of a Pix paid before it; the received-Pix job then finds it only on its next
 * pass). PUT is idempotent at the PSP, so every replica and restart may do it; until it succeeds
 * (PSP down) it tries again every second for a minute, then every minute.
 */
@Injectable()
export class PixApiPixWebhookRegistrar implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PixApiPixWebhook');
  private registered: Promise<boolean> | null = null;
  private stopped = false;

  constructor(
    private readonly client: PixApiClient,
    private readonly pixApi: PixApiConfig,
    private readonly config: PixApiCobConfig,
    private readonly jobs: PeriodicJobs,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.jobs.schedule({ name: 'pix-api-pix-webhook', everyMs: 60_000, needsDatabase: false, run: () => this.register() });
    void whenListening(this.adapterHost).then(() => this.firstTries());
  }

  onApplicationShutdown(): void {
    this.stopped = true;
  }

  /** Once listening, every second for a minute until the PSP takes it, then the job's minute. */
  private async firstTries(): Promise<void> {
    for (let i = 0; i < 60 && !this.stopped; i++) {
      try {
        await this.register();
        return;
      } catch (e: any) {
        this.logger.warn(`PSP Pix webhook not registered yet: ${e?.message ?? e}`);
        if (e instanceof PixApiRejection) return; // refused: the minute's job tries again, no point in hurrying
        await sleep(1000, undefined, { ref: false });
      }
    }
  }

  webhookUrl(): string {
    return this.config.webhookUrl ?? `${selfOrigin(this.adapterHost)}/provider/pix-api`;
  }

  /** Once per process (a call during the first one joins it; a failed one is tried again later). */
  register(): Promise<boolean> {
    this.registered ??= this.put().catch((e) => {
      this.registered = null;
      throw e;
    });
    return this.registered;
  }

  private async put(): Promise<boolean> {
    const webhookUrl = this.webhookUrl();
    await this.client.call({
      operation: 'putWebhook',
      method: 'PUT',
      path: `/webhook/${encodeURIComponent(this.pixApi.pixKey)}`,
      body: { webhookUrl },
      idempotent: true,
    });
    this.logger.log(`PSP Pix callbacks registered at ${webhookUrl}/pix`);
    return true;
  }
}
