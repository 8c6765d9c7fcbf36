import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobQueue } from '../../../kernel/platform/queue/job-queue';
import { PixApiBillings } from './pix-api-billings';
import { PixApiCobrApplier } from './pix-api-cobr-applier';
import { PixApiCobrConfig } from './pix-api-cobr.config';
import { PixApiRecurrences } from './pix-api-recurrences';

export type CallbackKind = 'rec' | 'cobr';

/** The job kind per callback kind; a job's key is `<kind>:<idRec|txid>`. */
export const PIX_API_CALLBACK_JOBS: Record<CallbackKind, string> = { rec: 'pix-api.rec', cobr: 'pix-api.cobr' };
const KINDS = Object.values(PIX_API_CALLBACK_JOBS);

/**
 * The PSP's callbacks, applied on the job queue. A callback is only a trigger to read the entity
 * back, so each id is a job `<kind>:<id>` made due by JobQueue.trigger: a repeat while one is
 * pending collapses into it, and one after it ran makes it due again (the job is the entity's,
 * not the callback's). The job reads the entity back (`GET /cobr/{txid}`, or `GET /rec/{idRec}`
 * through PixApiRecurrences.apply), turns its state into the provider events that lead there and
 * hands them to the same provider-event handling as the `service` provider, all in its own
 * transaction; an event already applied is a DUPLICATE/LATE no-op, so repeated or out-of-order
 * callbacks change nothing twice (PixApiCobrApplier: also the Pix that paid a cobr, and the
 * retries of PERMITE_3R_7D). A PSP that cannot be reached fails the job, retried on its backoff
 * and dead past PIX_API_CALLBACK_MAX_ATTEMPTS (readiness: `bank` degraded); one the PSP does not
 * know is dropped.
 */
@Injectable()
export class PixApiCallbacks implements OnModuleInit {
  private readonly logger = new Logger('PixApiCallbacks');

  constructor(
    private readonly ds: DataSource,
    private readonly queue: JobQueue,
    private readonly billings: PixApiBillings,
    private readonly recs: PixApiRecurrences,
    private readonly cobrs: PixApiCobrApplier,
    private readonly config: PixApiCobrConfig,
  ) {}

  onModuleInit(): void {
    if (!this.billings.enabled()) return; // queued, never run: as no worker ran them before
    for (const kind of ['rec', 'cobr'] as const)
      this.queue.register(PIX_API_CALLBACK_JOBS[kind], { ...this.config.callbacks, dependency: 'bank' }, (job) =>
        this.apply(kind, job.key.slice(kind.length + 1)),
      );
  }

  /** The controller's and the reconciler's part: one statement, then the answer; the work runs after it. */
  async accept(kind: CallbackKind, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.queue.trigger(
      this.ds,
      PIX_API_CALLBACK_JOBS[kind],
      ids.map((id) => `${kind}:${id}`),
    );
    this.queue.kick();
  }

  /** Runs the queue until no callback job is due (and none is running): the effects of the callbacks so far are applied. */
  async settle(): Promise<void> {
    for (let i = 0; i < 500; i++) {
      const ran = await this.queue.runDue();
      if (!(await this.queue.dueNow(KINDS))) return;
      if (!ran) await new Promise((r) => setTimeout(r, 20)); // another pass holds it
    }
  }

  private async apply(kind: CallbackKind, id: string): Promise<void> {
    try {
      if (kind === 'cobr') await this.cobrs.apply(await this.billings.cobr().getCobr(id));
      else await this.recs.apply(id);
    } catch (e: any) {
      if (e?.code === 'provider_rejected' && e?.status === 404) {
        this.logger.warn(`${kind} ${id}: the PSP does not know it; callback dropped`);
        return;
      }
      throw e;
    }
  }
}
