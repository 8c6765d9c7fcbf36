import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { PeriodicJob, PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { CobrState } from './cobr-status.map';
import { PixApiCobrApplier } from './pix-api-cobr-applier';
import { PixApiCallbackQueue, QueuedCallback } from './pix-api-callbacks.queue';
import { PixApiBillings } from './pix-api-billings';
import { PixApiRecurrences } from './pix-api-recurrences';

const BATCH = 100;
const CONCURRENCY = 8;
const LEASE_MS = 60_000;
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 15 * 60_000;

/**
 * Applies the PSP's callbacks from the queue: reads each entity back (`GET /cobr/{txid}`, or
 * `GET /rec/{idRec}` through PixApiRecurrences.apply), turns
 * its state into the provider events that lead there (`eventsToReach`) and hands them to the
 * same provider-event handling as the `service` provider, so tenants see the same states and
 * events; an event already applied is a DUPLICATE/LATE no-op, so repeated or out-of-order
 * callbacks change nothing twice (PixApiCobrApplier: also the Pix that paid a cobr, and the
 * retries of PERMITE_3R_7D). A PSP that cannot be reached leaves the row
 * queued with a backoff. Safe on several replicas (SKIP LOCKED claims with a lease).
 */
@Injectable()
export class PixApiCallbackWorker implements OnModuleInit {
  private readonly logger = new Logger('PixApiCallbacks');
  private job: PeriodicJob | null = null;

  constructor(
    private readonly queue: PixApiCallbackQueue,
    private readonly billings: PixApiBillings,
    private readonly recs: PixApiRecurrences,
    private readonly cobrs: PixApiCobrApplier,
    private readonly jobs: PeriodicJobs,
  ) {}

  onModuleInit(): void {
    if (!this.billings.enabled()) return;
    this.job = this.jobs.schedule({ name: 'pix-api-callbacks', everyMs: 5000, run: () => this.drain() });
  }

  /** The controller's part: one insert, then the answer; the work runs after it. */
  async accept(kind: 'rec' | 'cobr', ids: string[]): Promise<void> {
    await this.queue.enqueue(kind, ids);
    this.job?.kick();
  }

  /** Runs passes until nothing is due (and none is running): the effects of the callbacks so far are applied. */
  async settle(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (this.job) await this.job.runNow();
      else await this.drain();
      if (!(await this.queue.dueNow())) return;
    }
  }

  /** Applies everything due in the queue (a pass of the job). */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const batch = await this.queue.claim(BATCH, LEASE_MS);
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, batch.length) }, async () => {
          while (next < batch.length) await this.one(batch[next++]);
        }),
      );
      total += batch.length;
      if (batch.length < BATCH) return total;
    }
  }

  private async one(c: QueuedCallback): Promise<void> {
    try {
      if (c.kind === 'cobr') await this.applyCobr(await this.billings.cobr().getCobr(c.id));
      else await this.recs.apply(c.id);
      await this.queue.done(c);
    } catch (e: any) {
      if (e?.code === 'provider_rejected' && e?.status === 404) {
        this.logger.warn(`${c.kind} ${c.id}: the PSP does not know it; callback dropped`);
        await this.queue.done(c);
        return;
      }
      const wait = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 3 ** Math.max(0, c.attempts - 1));
      await this.queue.failed(c, wait, e?.message ?? String(e));
    }
  }

  /** Applies a cobr's state as read back from the PSP (a callback, a GET or a page of GET /cobr): PixApiCobrApplier. */
  applyCobr(c: CobrState): Promise<void> {
    return this.cobrs.apply(c);
  }
}
