import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { withAdvisoryLock } from '../../../kernel/platform/database/advisory-lock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { ProviderEventRouter } from '../bank/provider-event-router';
import { retryDate } from './cobr-retry';
import { billingStatusOfCobr } from './cobr-status.map';
import { PixApiBillings } from './pix-api-billings';
import { PixApiCallbacks } from './pix-api-callbacks';
import { PixApiCobrConfig } from './pix-api-cobr.config';
import { PixApiRecurrences } from './pix-api-recurrences';

/** Advisory lock of one reconciliation pass (any replica). */
export const RECONCILE_LOCK_KEY = 7_310_016;
const PER_PAGE = 1000;
const MAX_PAGES = 10_000;
/** A cobr is created up to this many days before its due date (the Central Bank's maximum, with a margin). */
const CREATED_BEFORE_DUE_DAYS = 12;

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** Recurrences open on our side whose rec says otherwise (`GET /rec?inicio&fim`), queued like a rec callback. */
@Injectable()
export class PixApiRecDrift {
  private readonly logger = new Logger('PixApiReconciler');

  constructor(
    private readonly recs: PixApiRecurrences,
    private readonly callbacks: PixApiCallbacks,
    private readonly clock: Clock,
  ) {}

  /** How many recs were queued (none when the PSP could not be read: the next pass tries again). */
  async queueDrifted(): Promise<number> {
    const drifted = await this.recs.drifted(this.clock.now()).catch((e) => {
      this.logger.warn(`recurrence reconciliation skipped this pass: ${e?.message ?? e}`);
      return [] as string[];
    });
    await this.callbacks.accept('rec', drifted);
    return drifted.length;
  }
}

/**
 * Billings the PSP still holds open on our side (SENT, ACTIVE) past their due date should have had
 * a verdict. The cobrs created in the span those billings can have been created in are read page
 * by page (`GET /cobr?inicio&fim`); each one whose state differs from ours, or that waits for a
 * retry request, is queued exactly like a callback.
 */
@Injectable()
export class PixApiCobrDrift {
  constructor(
    private readonly billings: PixApiBillings,
    private readonly callbacks: PixApiCallbacks,
    private readonly router: ProviderEventRouter,
    private readonly clock: Clock,
  ) {}

  /** How many cobrs were queued. */
  async queueDrifted(): Promise<number> {
    const view = this.router.billings();
    const today = this.clock.today();
    const open = await view?.openDueBefore(today);
    if (!view || !open) return 0;
    const inicio = new Date(`${addDays(open.first, -CREATED_BEFORE_DUE_DAYS)}T00:00:00-03:00`).toISOString();
    const fim = this.clock.now().toISOString();
    let queued = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await this.billings.cobr().listCobr(inicio, fim, page, PER_PAGE);
      const ours = await view.statuses(r.cobsr.map((c) => c.txid));
      const stale = r.cobsr.filter((c) => {
        const status = ours.get(c.txid);
        return status !== undefined && (status !== billingStatusOfCobr(c) || retryDate(c, today) !== null);
      });
      await this.callbacks.accept(
        'cobr',
        stale.map((c) => c.txid),
      );
      queued += stale.length;
      if (page + 1 >= r.parametros.paginacao.quantidadeDePaginas) break;
    }
    return queued;
  }
}

/**
 * Reconciliation for a PSP that dropped callbacks: every PIX_API_RECONCILE_INTERVAL_MS, under an
 * advisory lock (one replica at a time), drifted recurrences first (a payer's approval or cancel
 * whose callback never came), then drifted cobrs; the worker applies what is queued by the same
 * path (and the same dedupe) as a callback.
 */
@Injectable()
export class PixApiReconciler implements OnModuleInit {
  private readonly logger = new Logger('PixApiReconciler');

  constructor(
    private readonly ds: DataSource,
    private readonly jobs: PeriodicJobs,
    private readonly config: PixApiCobrConfig,
    private readonly recs: PixApiRecDrift,
    private readonly cobrs: PixApiCobrDrift,
  ) {}

  onModuleInit(): void {
    if (!this.config.enabled || this.config.reconcileIntervalMs <= 0) return;
    this.jobs.schedule({ name: 'pix-api-reconcile', everyMs: this.config.reconcileIntervalMs, run: () => this.reconcile() });
  }

  /** One pass; the number of recs and cobrs queued (null: another replica is running one). */
  async reconcile(): Promise<number | null> {
    return withAdvisoryLock(this.ds, RECONCILE_LOCK_KEY, { wait: false }, async () => {
      const queued = (await this.recs.queueDrifted()) + (await this.cobrs.queueDrifted());
      if (queued) this.logger.log(`queued ${queued} recs and cobrs whose callbacks did not arrive`);
      return queued;
    });
  }
}
