import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RefundablePayment } from '../../../kernel/common/contracts/refundable-payments.port';
import { fromCents, toCents } from '../../../kernel/common/formats/money';
import { Clock } from '../../../kernel/platform/clock/clock';
import { transaction } from '../../../kernel/platform/database/sql';
import { CreateRefundDto } from '../dto/refund.dto';
import { RefundEvents } from '../refund-events';
import { refundView } from '../refund.view';
import { RefundErrors } from '../refunds.errors';
import { RefundRecord, RefundsRepository } from '../refunds.repository';
import { PaymentRef, PaymentsOf } from '../payments-of';
import { refusalError } from '../refund-refusals';
import { SendRefund } from './send-refund';

/** A Pix may be given back for 90 days from its settlement (API Pix: PixDevolucaoInvalida past it). */
export const DEVOLUCAO_WINDOW_MS = 90 * 86_400_000;

const NOT_FOUND: Record<PaymentRef['kind'], string> = {
  card_payment: 'No such card payment for this tenant',
  link_payment: 'No such payment on this link for this tenant',
  billing: 'No such billing on this recurrence for this tenant',
};
const NOUN: Record<PaymentRef['kind'], string> = { card_payment: 'card payment', link_payment: 'payment', billing: 'billing' };

/**
 * `POST …/payments/{paymentId}/refunds` (a card payment, a link's payment, a billing). A captured
 * payment: the amount (all that remains when omitted) is reserved against the payment's balance by
 * a conditional UPDATE, the refund and its webhook written, all in one transaction; then the
 * provider is asked on the payment's rail, and the answer applied. A Pix is refused before
 * anything is written once 90 days have passed since it settled. A pre-authorization never
 * captured: the refund is a void, of the whole amount, done at the acquirer first; nothing is
 * written when the acquirer does not release it.
 */
@Injectable()
export class CreateRefund {
  constructor(
    private readonly ds: DataSource,
    private readonly refunds: RefundsRepository,
    private readonly payments: PaymentsOf,
    private readonly sender: SendRefund,
    private readonly events: RefundEvents,
    private readonly clock: Clock,
  ) {}

  async execute(tenantId: string, ref: PaymentRef, dto: CreateRefundDto, requestId: string | null): Promise<RefundRecord> {
    const p = await this.payments.find(tenantId, ref);
    if (!p) throw RefundErrors.error('payment_not_found', NOT_FOUND[ref.kind]);
    // rail pix without its Pix yet (PAID_PIX reported before the PSP's callback): taken, and sent once the Pix is known
    if (p.state === 'not_refundable' || (p.rail === 'card' && !p.acquirerTransactionId))
      throw RefundErrors.error(
        'payment_not_refundable',
        p.notRefundableBecause ?? `Nothing to refund: the ${NOUN[ref.kind]} is ${p.status}`,
      );
    const cents = dto.amount === undefined ? null : toCents(dto.amount);
    if (p.rail === 'payout' && !dto.payout)
      throw RefundErrors.error('validation_error', 'The request has invalid fields', {
        details: [
          {
            field: 'payout',
            code: 'payout_required',
            message: 'a boleto paid by bank clearing is refunded by a payout: give payout.pixKey',
          },
        ],
      });
    if (p.state === 'authorized') return this.voidAuthorization(p, cents, dto, requestId);
    if (p.pix && this.clock.now().getTime() - p.pix.settledAt.getTime() > DEVOLUCAO_WINDOW_MS)
      throw RefundErrors.error(
        'refund_window_closed',
        `A Pix can be given back for 90 days from its settlement; this one settled on ${p.pix.settledAt.toISOString()}`,
      );

    // read before the transaction (never a second pool client while holding one); the reserve is the guard
    const balance = (await this.refunds.totals([p.paymentId])).get(p.paymentId);
    const left = balance?.refundableCents ?? p.capCents;
    const amount = cents ?? left;
    const refund = await transaction(this.ds, async (tx) => {
      if (amount <= 0 || !(await this.refunds.reserve(tx, p, amount, balance !== undefined)))
        throw RefundErrors.error(
          'refund_exceeds_refundable',
          `The refund would pass what can still be refunded of this payment (${fromCents(Math.max(0, left)).toFixed(2)})`,
          {
            details: [
              { field: 'amount', code: 'max', message: `at most ${fromCents(Math.max(0, left)).toFixed(2)} can still be refunded` },
            ],
          },
        );
      const now = this.clock.now();
      const r = await this.refunds.insert(tx, {
        id: randomUUID(),
        payment: p,
        method: 'refund',
        amountCents: amount,
        reason: dto.reason,
        description: dto.description ?? null,
        status: 'PENDING',
        requestId,
        splitReversal: this.payments.reversalOf(p, amount),
        payout:
          p.rail === 'payout' && dto.payout
            ? { pixKey: dto.payout.pixKey, ...(dto.payout.holderName ? { holderName: dto.payout.holderName } : {}) }
            : null,
        now,
      });
      await this.events.refundChanged(tx, p.tenantId, refundView(r), now);
      // a payout is made by the tenant and confirmed: nothing to send; else its job, the fallback of the send below
      if (p.rail !== 'payout') await this.sender.enqueue(tx, r);
      return r;
    });
    if (p.rail === 'payout') return refund;
    const { refund: after, refused } = await this.sender.send(refund, p);
    if (refused) throw refusalError(refused, after);
    return after;
  }

  private async voidAuthorization(p: RefundablePayment, cents: number | null, dto: CreateRefundDto, requestId: string | null) {
    if (cents !== null && cents !== p.capCents)
      throw RefundErrors.error('validation_error', 'The request has invalid fields', {
        details: [
          {
            field: 'amount',
            code: 'partial_void',
            message: `a pre-authorization is released whole: omit amount or send ${fromCents(p.capCents).toFixed(2)}`,
          },
        ],
      });
    await this.payments.cancelAuthorization(p.tenantId, p.paymentId);
    return transaction(this.ds, async (tx) => {
      const now = this.clock.now();
      if (!(await this.refunds.reserve(tx, p, p.capCents)))
        throw RefundErrors.error('refund_exceeds_refundable', 'This pre-authorization was already released');
      const r = await this.refunds.insert(tx, {
        id: randomUUID(),
        payment: p,
        method: 'void',
        amountCents: p.capCents,
        reason: dto.reason,
        description: dto.description ?? null,
        status: 'SUCCEEDED',
        requestId,
        splitReversal: null,
        payout: null,
        now,
      });
      await this.events.refundChanged(tx, p.tenantId, refundView(r), now);
      return r;
    });
  }
}
