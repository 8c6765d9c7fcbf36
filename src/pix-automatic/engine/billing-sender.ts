import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock, saoPauloDate } from '../../../kernel/platform/clock/clock';
import { BankBillingResult, BankProvider } from '../../provider/bank/bank-provider.port';
import { ProviderEventHandler } from '../events/provider-event-handler';
import { PixAutomaticConfig } from '../pix-automatic.config';
import { Billing } from '../pix.model';
import { EngineRepository } from './engine.repository';
import { retryDelayMs } from './schedule';
import { sendDays, sendVerdict, startOfSaoPauloDay } from './send-window';
import { transaction } from '../../../kernel/platform/database/sql';

export interface SendTotals {
  sent: number;
  failed: number;
}

/** Upper bound of chunks one worker sends in a run (a run never loops for ever). */
const MAX_CHUNKS_PER_WORKER = 10_000;

/**
 * Sends billings to the provider in batches: leases them (so no other replica sends the same
 * ones meanwhile, and no row lock is held during HTTP), sends one batch per provider call, then
 * records the outcome: SENT; SEND_FAILED with `sendAttempts` counted and a retry with backoff
 * while the send window allows (up to the due date with `service`; up to PIX_API_BILLING_SEND_MIN_DAYS
 * before it with `pix-api`); or SEND_FAILED for good when the provider refused it (its reason in
 * `lastError`) or the window closed. A billing whose window has not opened yet (an ad hoc one due
 * far ahead, on pix-api) is not sent: it waits, leased until the window's first day.
 */
@Injectable()
export class BillingSender {
  constructor(
    private readonly ds: DataSource,
    private readonly repo: EngineRepository,
    private readonly provider: BankProvider,
    private readonly events: ProviderEventHandler,
    private readonly config: PixAutomaticConfig,
    private readonly clock: Clock,
  ) {}

  /** Long enough for one provider call with all its retries; a crashed sender's billings come back after it. */
  leaseMs(): number {
    return 2 * this.provider.maxCallMs() + 1000;
  }

  async sendDue(concurrency: number): Promise<SendTotals> {
    const totals: SendTotals = { sent: 0, failed: 0 };
    const size = this.config.engineBatchSize;
    const worker = async () => {
      for (let i = 0; i < MAX_CHUNKS_PER_WORKER; i++) {
        const now = this.clock.now();
        const batch = await this.repo.claimToSend(now, new Date(now.getTime() + this.leaseMs()), size);
        if (!batch.length) return;
        const r = await this.send(batch);
        totals.sent += r.sent;
        totals.failed += r.failed;
        if (batch.length < size) return;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return totals;
  }

  /** Sends billings this process has leased (or just created) and records the outcome. */
  async send(billings: Billing[]): Promise<SendTotals> {
    const today = this.clock.today();
    const window = this.config.sendWindow;
    const closed: { b: Billing; reason: string }[] = [];
    const waiting: { id: string; nextAttemptAt: Date }[] = [];
    const toSend: Billing[] = [];
    for (const b of billings) {
      const v = sendVerdict(b.dueDate, today, window);
      if (v.kind === 'send') toSend.push(b);
      else if (v.kind === 'wait') waiting.push({ id: b.id, nextAttemptAt: startOfSaoPauloDay(v.until) });
      else closed.push({ b, reason: v.reason });
    }
    let answers: Map<string, BankBillingResult> | null = null;
    let error = '';
    if (toSend.length) {
      try {
        const results = await this.provider.sendBillings(
          toSend.map((b) => ({
            idTx: b.idTx,
            billingId: b.id,
            recurrenceId: b.recurrenceId,
            amountCents: b.amountCents,
            currency: 'BRL' as const,
            dueDate: b.dueDate,
          })),
        );
        answers = new Map(results.map((r) => [r.idTx, r]));
      } catch (e: any) {
        error = e?.message ?? 'provider error';
      }
    }
    const sent: Billing[] = [];
    // Not reached (whole call failed, or this billing's own call): retried while the window lasts.
    const failed = new Map<string, Billing[]>();
    const refused: { b: Billing; reason: string }[] = [];
    for (const b of toSend) {
      const a = answers?.get(b.idTx);
      if (!answers) push(failed, `provider unavailable: ${error}`, b);
      else if (a?.accepted) sent.push(b);
      else if (a?.retryable) push(failed, `provider unavailable: ${a.reason ?? 'no answer'}`, b);
      else refused.push({ b, reason: a?.reason ?? a?.status ?? 'missing from the provider answer' });
    }
    await transaction(this.ds, async (m) => {
      const moved = await this.repo.markSent(
        m,
        sent.map((b) => b.id),
      );
      for (const [reason, list] of failed)
        await this.repo.markFailed(
          m,
          list.map((b) => ({ id: b.id, nextAttemptAt: this.nextAttempt(b) })),
          reason,
        );
      for (const { b, reason } of refused)
        await this.repo.markFailed(m, [{ id: b.id, nextAttemptAt: null }], `provider refused: ${reason}`);
      for (const { b, reason } of closed) await this.repo.markFailed(m, [{ id: b.id, nextAttemptAt: null }], reason);
      await this.repo.postpone(m, waiting);
      // Provider events that overtook the send (BILLING_ACTIVE before we marked SENT) apply now.
      if (moved.length) await this.events.replayParked(m, moved);
    });
    let failedCount = 0;
    for (const list of failed.values()) failedCount += list.length;
    return { sent: sent.length, failed: failedCount + refused.length + closed.length };
  }

  /** Next retry, or null when it would fall after the last day of the send window. */
  private nextAttempt(b: Billing): Date | null {
    const at = new Date(this.clock.now().getTime() + retryDelayMs(b.sendAttempts + 1, this.config.retryBaseMs, this.config.retryMaxMs));
    return saoPauloDate(at) <= sendDays(b.dueDate, this.config.sendWindow).last ? at : null;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
