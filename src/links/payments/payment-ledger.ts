import { Injectable } from '@nestjs/common';
import { acceptsPayments } from '../domain/link.state-machine';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { isPaid, nextItemStatus, PaymentItemTrigger, TransactionMethod } from '../domain/payment-item.state-machine';
import { LinkErrors } from '../links.errors';
import { LinkLifecycle } from '../links/link-lifecycle';
import { Link } from '../links/link.types';
import { LinksRepository } from '../links/links.repository';
import { PaymentEffects } from './payment-effects';
import { PaymentItem } from './payment.types';
import { NewPaymentItem, PaymentsRepository } from './payments.repository';
import { Tx, transaction } from '../../../kernel/platform/database/sql';

/** The triggers that take an item to the status the acquirer reports (a Pix reported SETTLED first is confirmed, then settled). */
const PATHS: Record<TransactionMethod, Record<string, PaymentItemTrigger[]>> = {
  CARD: { CAPTURED: ['CAPTURE'], VOIDED: ['VOID'] },
  PIX: { AUTHORIZED: ['CONFIRM'], SETTLED: ['CONFIRM', 'SETTLE'], EXPIRED: ['EXPIRE'] },
  BOLETO: { PAID: ['PAY'], PAID_PIX: ['PAY_BY_PIX'], EXPIRED: ['EXPIRE'], CANCELED: ['CANCEL'] },
};

const STILL_OPEN = new Set(['PENDING', 'PREAUTH']);

/**
 * Every change to a link's payments and metrics, each in one transaction with the link row
 * locked: the attempt and its counters, the status change and its counters, the use hold that
 * makes maxUses race-safe, the link's events, the webhook and the e-mail notice.
 */
@Injectable()
export class PaymentLedger {
  constructor(
    private readonly ds: DataSource,
    private readonly links: LinksRepository,
    private readonly payments: PaymentsRepository,
    private readonly lifecycle: LinkLifecycle,
    private readonly effects: PaymentEffects,
    private readonly clock: Clock,
  ) {}

  /**
   * Before an attempt: the link must be ACTIVE and, with maxUses, have a use that is neither
   * paid nor held by another attempt in flight; that use is then held until `holdUntil`.
   * Two payers racing for the last use serialize on the row lock: one holds it, the other is refused.
   */
  async reserve(linkId: string, paymentId: string, holdUntil: Date): Promise<void> {
    const outcome = await transaction(this.ds, async (m) => {
      const now = this.clock.now();
      const l = (await this.links.lock(m, linkId))!;
      if (this.lifecycle.isDueToExpire(l, now)) {
        await this.lifecycle.expireIn(m, l.id);
        return 'EXPIRED';
      }
      if (!acceptsPayments(l.status)) return l.status;
      if (l.maxUses === null) return 'OK';
      if (l.paidCount >= l.maxUses) {
        await this.lifecycle.exhaustIfFullIn(m, l);
        return 'EXHAUSTED';
      }
      if (l.paidCount + (await this.payments.activeHolds(m, l.id, now)) >= l.maxUses) return 'BUSY';
      await this.payments.hold(m, paymentId, l.id, holdUntil);
      return 'OK';
    });
    if (outcome === 'OK') return;
    if (outcome === 'BUSY') {
      throw LinkErrors.error('link_busy', 'Another payer is completing the last available use of this link; try again in a few minutes', {
        headers: { 'Retry-After': '60' },
      });
    }
    throw unavailable(outcome);
  }

  savePendingCard(item: NewPaymentItem, checkAfterSeconds: number): Promise<void> {
    return this.payments.savePendingCard(item, checkAfterSeconds);
  }

  find(id: string): Promise<PaymentItem | null> {
    return this.payments.find(id);
  }

  /** Gives a held use back (the attempt did not happen). */
  async releaseHold(paymentId: string): Promise<void> {
    await transaction(this.ds, (m) => this.payments.release(m, paymentId));
  }

  /** Records an attempt as the link's next payment item, with its counters and effects. */
  async record(item: NewPaymentItem, holdUntil: Date | null): Promise<PaymentItem> {
    const saved = await transaction(this.ds, async (m) => {
      const now = this.clock.now();
      const link = (await this.links.lock(m, item.linkId))!;
      const p = await this.payments.insert(m, { ...item, paidAt: isPaid(item.status) ? now : null }, now);
      if (p.method === 'CARD') await this.payments.dropPendingCard(m, p.id);
      await this.links.addEvent(
        m,
        link.id,
        'PAYMENT_ATTEMPTED',
        { method: p.method, status: p.status, amount: p.amountCents / 100 },
        now,
        p.id,
      );
      // An attempt still waiting for the payer keeps the use it reserved (maxUses links only).
      if (STILL_OPEN.has(p.status) && holdUntil && link.maxUses !== null) await this.payments.hold(m, p.id, link.id, holdUntil);
      else await this.payments.release(m, p.id);
      await this.afterStatus(m, link, p, null, now);
      return p;
    });
    this.effects.afterCommit([saved]);
    return saved;
  }

  /**
   * Applies a status the acquirer reports for our transaction (the payment id). Repeats and
   * late, out-of-order reports change nothing. Answers false for an unknown transaction.
   */
  async applyReported(paymentId: string, reported: string): Promise<boolean> {
    const known = await this.payments.find(paymentId);
    if (!known) return false;
    const path = PATHS[known.method][reported];
    if (!path) return true;
    const reached: PaymentItem[] = [];
    await transaction(this.ds, async (m) => {
      const link = (await this.links.lock(m, known.linkId))!;
      let p = (await this.payments.lock(m, paymentId))!;
      for (const trigger of path) {
        const to = nextItemStatus(p.method, p.status as never, trigger as never);
        if (!to) continue;
        const now = this.clock.now();
        const next = await this.payments.transition(m, p.id, [p.status], to, now, isPaid(to) ? now : null);
        if (!next) continue;
        await this.links.addEvent(m, link.id, 'PAYMENT_STATUS_CHANGED', { method: p.method, from: p.status, to }, now, p.id);
        if (!STILL_OPEN.has(to)) await this.payments.release(m, p.id);
        await this.afterStatus(m, link, next, p.status, now);
        reached.push(next);
        p = next;
      }
    });
    this.effects.afterCommit(reached);
    return true;
  }

  /** Counters, exhaustion, webhook and e-mail for an item that reached `p.status` from `from`. */
  private async afterStatus(m: Tx, link: Link, p: PaymentItem, from: string | null, now: Date): Promise<void> {
    if (isPaid(p.status) && (from === null || !isPaid(from))) {
      const c = await this.payments.countPaid(m, link.id, p.amountCents, now);
      await this.lifecycle.exhaustIfFullIn(m, { id: link.id, status: c.status, maxUses: c.maxUses, paidCount: c.paidCount });
    }
    await this.effects.onStatus(m, link, p, from, now);
  }
}

export function unavailable(status: string) {
  const why: Record<string, string> = {
    INACTIVE: 'This payment link is paused by its owner',
    EXPIRED: 'This payment link has expired',
    EXHAUSTED: 'This payment link has reached its maximum number of payments',
  };
  return LinkErrors.error('link_unavailable', `${why[status] ?? 'This payment link is not available'}; it accepts no more payments`, {
    body: { linkStatus: status },
  });
}
