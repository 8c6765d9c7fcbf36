import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock, saoPauloDate } from '../../platform/clock/clock';
import { BankBillingResult, BankProvider } from '../../provider/bank/bank-provider.port';
import { ProviderEventHandler } from '../events/provider-event-handler';
import { PixAutomaticConfig } from '../pix-automatic.config';
import { Billing } from '../pix.model';
import { EngineRepository } from './engine.repository';
import { retryDelayMs } from './schedule';

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
 * while the due date allows; or SEND_FAILED for good when the provider refused it or its due
 * date passed.
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
    const late = billings.filter((b) => b.dueDate < today);
    const toSend = billings.filter((b) => b.dueDate >= today);
    let answers: Map<string, BankBillingResult> | null = null;
    let error = '';
    if (toSend.length) {
      try {
        const results = await this.provider.sendBillings(
          toSend.map((b) => ({ idTx: b.idTx, billingId: b.id, recurrenceId: b.recurrenceId, amountCents: b.amountCents, currency: 'BRL' as const, dueDate: b.dueDate })),
        );
        answers = new Map(results.map((r) => [r.idTx, r]));
      } catch (e: any) {
        error = e?.message ?? 'provider error';
      }
    }
    const sent: Billing[] = [];
    const failed: Billing[] = [];
    const refused: { b: Billing; reason: string }[] = [];
    for (const b of toSend) {
      const a = answers?.get(b.idTx);
      if (!answers) failed.push(b);
      else if (a?.accepted) sent.push(b);
      else refused.push({ b, reason: a?.reason ?? a?.status ?? 'missing from the provider answer' });
    }
    await this.ds.transaction(async (m) => {
      const moved = await this.repo.markSent(m, sent.map((b) => b.id));
      await this.repo.markFailed(m, failed.map((b) => ({ id: b.id, nextAttemptAt: this.nextAttempt(b) })), `provider unavailable: ${error}`);
      for (const { b, reason } of refused) await this.repo.markFailed(m, [{ id: b.id, nextAttemptAt: null }], `provider refused: ${reason}`);
      await this.repo.markFailed(m, late.map((b) => ({ id: b.id, nextAttemptAt: null })), 'due date passed before the billing could be sent');
      // Provider events that overtook the send (BILLING_ACTIVE before we marked SENT) apply now.
      if (moved.length) await this.events.replayParked(m, moved);
    });
    return { sent: sent.length, failed: failed.length + refused.length + late.length };
  }

  /** Next retry, or null when it would fall after the due date. */
  private nextAttempt(b: Billing): Date | null {
    const at = new Date(this.clock.now().getTime() + retryDelayMs(b.sendAttempts + 1, this.config.retryBaseMs, this.config.retryMaxMs));
    return saoPauloDate(at) <= b.dueDate ? at : null;
  }
}
