import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { withAdvisoryLock } from '../../../kernel/platform/database/advisory-lock';
import { billingEvent, OutboundEvents, PixEvent, recurrenceEvent } from '../events/outbound-events';
import { newIdTx } from '../id-tx';
import { Billing } from '../pix.model';
import { PixAutomaticConfig } from '../pix-automatic.config';
import { BillingSender, SendTotals } from './billing-sender';
import { CursorUpdate, EngineRepository, NewRegularBilling } from './engine.repository';
import { planCycles } from './schedule';
import { transaction } from '../../../kernel/platform/database/sql';

/** Key of the session advisory lock one engine run holds (any replica). */
export const ENGINE_LOCK_KEY = 7_310_001;
const MAX_BATCHES_PER_RUN = 100_000;
const SEND_CONCURRENCY = 4;

export interface EngineRunResult {
  day: string;
  created: number;
  skipped: number;
  expired: number;
  sent: number;
  failed: number;
  ms: { generate: number; expire: number; send: number };
}

/**
 * The billing engine (no endpoint). Each run, for the day it is given: creates the billing of
 * every cycle whose send date has come (PENDING_SEND, event BILLING_REQUESTED), records missed
 * cycles as skipped, moves ACCEPTED recurrences to ACTIVE on their first billing, expires
 * recurrences past their expirationDate, and sends what is due (retries included).
 *
 * Safe on any number of replicas: a run takes `pg_try_advisory_lock`, recurrences are claimed in
 * batches with `FOR UPDATE SKIP LOCKED`, billings are leased before sending, and one regular
 * billing per (recurrence, cycle) is a unique index.
 */
@Injectable()
export class BillingEngine {
  private readonly logger = new Logger('BillingEngine');

  constructor(
    private readonly ds: DataSource,
    private readonly repo: EngineRepository,
    private readonly sender: BillingSender,
    private readonly events: OutboundEvents,
    private readonly config: PixAutomaticConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * One run for `day`. `wait: false` (the timer) gives up when another replica is running;
   * `wait: true` (the test clock) waits for it, so the effects are visible when the clock answers.
   */
  async runDay(day: string, opts: { wait: boolean }): Promise<EngineRunResult | null> {
    return withAdvisoryLock(this.ds, ENGINE_LOCK_KEY, opts, async () => {
      const t0 = Date.now();
      const created = await this.generateAndSend(day);
      const t1 = Date.now();
      const expired = await this.expire(day);
      const t2 = Date.now();
      const retried = await this.sendDue();
      const result = {
        day,
        created: created.created,
        skipped: created.skipped,
        expired,
        sent: created.sent + retried.sent,
        failed: created.failed + retried.failed,
        ms: { generate: t1 - t0, expire: t2 - t1, send: Date.now() - t2 },
      };
      if (result.created || result.skipped || result.expired || result.sent || result.failed)
        this.logger.log(`run ${JSON.stringify(result)}`);
      return result;
    });
  }

  /**
   * Creates the billings (and skips) of every recurrence whose next send date has come, without
   * sending them: they are left for `sendDue` (any replica).
   */
  async generate(day: string): Promise<{ created: number; skipped: number }> {
    let created = 0;
    let skipped = 0;
    let after: { date: string; id: string } | undefined;
    for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
      const r = await this.generateBatch(day, this.clock.now(), after);
      after = r.last ?? after;
      created += r.billings.length;
      skipped += r.skipped;
      if (r.claimed < this.config.engineBatchSize) break;
    }
    return { created, skipped };
  }

  /**
   * `generate` pipelined with sending: BILLING_ENGINE_CONCURRENCY transactions generate batches side by
   * side (SKIP LOCKED keeps their claims apart; they share the keyset cursor), and each batch,
   * once committed, is sent to the provider while the next ones are generated. A batch is created
   * leased to this run, so no other replica sends it meanwhile; if this process dies, the lease
   * runs out and `sendDue` picks it up.
   */
  async generateAndSend(day: string): Promise<{ created: number; skipped: number } & SendTotals> {
    const totals = { created: 0, skipped: 0, sent: 0, failed: 0 };
    const inflight = new Set<Promise<void>>();
    let after: { date: string; id: string } | undefined;
    let done = false;
    let batches = 0;
    const errors: unknown[] = [];
    const worker = async () => {
      while (!done && batches++ < MAX_BATCHES_PER_RUN) {
        const r = await this.generateBatch(day, new Date(this.clock.now().getTime() + this.sender.leaseMs()), after);
        if (r.last && (!after || r.last.date > after.date || (r.last.date === after.date && r.last.id > after.id))) after = r.last;
        totals.created += r.billings.length;
        totals.skipped += r.skipped;
        if (r.claimed < this.config.engineBatchSize) done = true;
        if (!r.billings.length) continue;
        const tracked: Promise<void> = this.sender
          .send(r.billings)
          .then((t) => {
            totals.sent += t.sent;
            totals.failed += t.failed;
          })
          .catch((e) => void errors.push(e))
          .finally(() => inflight.delete(tracked));
        inflight.add(tracked);
        while (inflight.size >= SEND_CONCURRENCY) await Promise.race(inflight);
      }
    };
    try {
      await Promise.all(Array.from({ length: this.config.engineConcurrency }, worker));
    } finally {
      while (inflight.size) await Promise.race(inflight);
    }
    // A failed send leaves its billings leased; they come back to sendDue when the lease ends.
    if (errors.length) throw errors[0];
    return totals;
  }

  /** One transaction: claims a batch of due recurrences (SKIP LOCKED) and writes their cycles. */
  async generateBatch(
    day: string,
    nextAttemptAt: Date,
    after?: { date: string; id: string },
  ): Promise<{ claimed: number; billings: Billing[]; skipped: number; last?: { date: string; id: string } }> {
    return transaction(this.ds, async (m) => {
      const due = await this.repo.claimDueRecurrences(m, day, this.config.engineBatchSize, after);
      const toCreate: NewRegularBilling[] = [];
      const toSkip: { recurrenceId: string; cycle: number; dueDate: string }[] = [];
      const cursors: CursorUpdate[] = [];
      const byId = new Map(due.map((r) => [r.id, r]));
      // Recurrences on the same schedule (same first due date, periodicity…) share one plan.
      const plans = new Map<string, ReturnType<typeof planCycles>>();
      for (const r of due) {
        const key = `${r.firstDueDate}|${r.periodicity}|${r.dayAdjustment}|${r.expirationDate}|${r.nextCycle}`;
        let plan = plans.get(key);
        if (!plan) plans.set(key, (plan = planCycles(r, day, this.config.leadDays, this.config.minLeadDays)));
        for (const c of plan.create)
          toCreate.push({
            tenantId: r.tenantId,
            recurrenceId: r.id,
            cycle: c.cycle,
            idTx: newIdTx('BL'),
            amountCents: r.amountCents,
            dueDate: c.dueDate,
          });
        for (const c of plan.skip) toSkip.push({ recurrenceId: r.id, cycle: c.cycle, dueDate: c.dueDate });
        cursors.push({ id: r.id, nextCycle: plan.nextCycle, nextSendDate: plan.nextSendDate, activate: plan.create.length > 0 });
      }
      const billings = await this.repo.insertRegularBillings(m, toCreate, nextAttemptAt);
      const skippedRows = await this.repo.insertSkipped(m, toSkip);
      await this.repo.advanceCursors(m, cursors);
      await this.events.publishManyOnce(
        m,
        billings.map((b) => billingEvent(b, 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED')),
      );
      const skipDue = new Map(toSkip.map((x) => [`${x.recurrenceId}/${x.cycle}`, x.dueDate]));
      const skippedEvents: PixEvent[] = skippedRows.map((s) => {
        const r = byId.get(s.recurrenceId)!;
        const dueDate = skipDue.get(`${s.recurrenceId}/${s.cycle}`)!;
        return {
          tenantId: r.tenantId,
          type: 'PIX_AUTOMATIC_RECEIVER_BILLING_SKIPPED',
          idTx: r.idTx,
          data: { recurrenceId: r.id, cycle: s.cycle, dueDate, reason: 'MISSED_SEND_WINDOW' },
        };
      });
      await this.events.publishAll(m, skippedEvents);
      const tail = due[due.length - 1];
      return {
        claimed: due.length,
        billings,
        skipped: skippedRows.length,
        last: tail ? { date: tail.nextSendDate!, id: tail.id } : undefined,
      };
    });
  }

  /** Recurrences past their expirationDate (the term includes that day) become EXPIRED. */
  async expire(day: string): Promise<number> {
    let total = 0;
    for (let i = 0; i < MAX_BATCHES_PER_RUN; i++) {
      const n = await transaction(this.ds, async (m) => {
        const expired = await this.repo.expireEnded(m, day, this.config.engineBatchSize);
        await this.events.publishManyOnce(
          m,
          expired.map((r) => recurrenceEvent(r, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE')),
        );
        return expired.length;
      });
      total += n;
      if (n < this.config.engineBatchSize) break;
    }
    return total;
  }

  sendDue(): Promise<SendTotals> {
    return this.sender.sendDue(SEND_CONCURRENCY);
  }
}
