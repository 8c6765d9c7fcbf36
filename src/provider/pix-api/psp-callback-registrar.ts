import { Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { selfOrigin, whenListening } from '../../../kernel/platform/http/self-origin';
import { PixApiRejection } from './pix-api-client';

/** One kind of callback this service registers at the PSP (received Pix; Pix Automático's rec and cobr). */
export interface PspCallbacks {
  /** The periodic job's name, and the logger's context. */
  name: string;
  /** What the log lines call them (`PSP Pix webhook`). */
  label: string;
  /** What the log line names once they are registered, after the URL (`/pix`, `/rec and /cobr`). */
  registered: string;
  /** PIX_API_WEBHOOK_URL, or unset: this server's own `/provider/pix-api`. */
  configuredUrl?: string;
  /** Whether this process registers them at all (its bank protocol is API Pix). */
  enabled: boolean;
  /** The idempotent PUTs that register `webhookUrl` (every replica and restart may make them). */
  put(webhookUrl: string): Promise<void>;
}

/** Tries a second apart once the server listens, before the job's minute takes over. */
const FIRST_TRIES = 60;
const FIRST_TRIES_APART_MS = 1000;
/** Then the periodic job, until a try succeeds. */
const EVERY_MS = 60_000;

/**
 * Registers one kind of our callbacks at the PSP, the same way for every kind: as soon as the
 * server listens (its own address is the default URL, and a PSP drops the callback of a payment
 * made before the registration), then every second for a minute while the PSP is unreachable, then
 * every minute until it succeeds. A refusal (4xx) is an answer, not an outage: it is left to the
 * minute. Once registered, the process does not register again; a try during another joins it.
 * Each kind is a provider that extends this with its PUTs.
 */
export class PspCallbackRegistrar implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger: Logger;
  private registered: Promise<boolean> | null = null;
  private stopped = false;

  constructor(
    private readonly callbacks: PspCallbacks,
    private readonly jobs: PeriodicJobs,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.logger = new Logger(callbacks.name);
  }

  /** Schedules the job and the first tries. */
  onApplicationBootstrap(): void {
    if (!this.callbacks.enabled) return;
    this.jobs.schedule({ name: this.callbacks.name, everyMs: EVERY_MS, needsDatabase: false, run: () => this.register() });
    void whenListening(this.adapterHost).then(() => this.firstTries());
  }

  /** No more first tries (the job stops with the others). */
  onApplicationShutdown(): void {
    this.stopped = true;
  }

  webhookUrl(): string {
    return this.callbacks.configuredUrl ?? `${selfOrigin(this.adapterHost)}/provider/pix-api`;
  }

  /** The PUTs once per process (a call during the first one joins it; a failed one is tried again later). */
  register(): Promise<boolean> {
    this.registered ??= this.put().catch((e) => {
      this.registered = null;
      throw e;
    });
    return this.registered;
  }

  private async put(): Promise<boolean> {
    const url = this.webhookUrl();
    await this.callbacks.put(url);
    this.logger.log(`${this.callbacks.label} registered at ${url}${this.callbacks.registered}`);
    return true;
  }

  private async firstTries(): Promise<void> {
    for (let i = 0; i < FIRST_TRIES && !this.stopped; i++) {
      try {
        await this.register();
        return;
      } catch (e: any) {
        this.logger.warn(`${this.callbacks.label} not registered yet: ${e?.message ?? e}`);
        if (e instanceof PixApiRejection) return; // refused: the minute's job tries again, no point in hurrying
        await sleep(FIRST_TRIES_APART_MS, undefined, { ref: false });
      }
    }
  }
}
