import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CardPaymentRefunds, RefundablePayment } from '../../common/contracts/refundable-payments.port';
import { fromCents, toCents } from '../../common/formats/money';
import { Clock } from '../../platform/clock/clock';
import { transaction } from '../../platform/database/sql';
import { CreateRefundDto } from '../dto/refund.dto';
import { RefundEvents } from '../refund-events';
import { refundView } from '../refund.view';
import { RefundErrors } from '../refunds.errors';
import { RefundRecord, RefundsRepository } from '../refunds.repository';
import { SendRefund } from './send-refund';

/** How long a refund waits for its first answer before the job sends it again. */
const FIRST_RESEND_MS = 30_000;

/**
 * `POST …/payments/{paymentId}/refunds`. A captured payment: the amount (all that remains when
 * omitted) is reserved against the payment's balance by a conditional UPDATE, the refund and its
 * webhook written, all in one transaction; then the acquirer is asked, and the answer applied. A
 * pre-authorization never captured: the refund is a void, of the whole amount, done at the
 * acquirer first; nothing is written when the acquirer does not release it.
 */
@Injectable()
export class CreateRefund {
  constructor(
    private readonly ds: DataSource,
    private readonly refunds: RefundsRepository,
    private readonly payments: CardPaymentRefunds,
    private readonly sender: SendRefund,
    private readonly events: RefundEvents,
    private readonly clock: Clock,
  ) {}

  async execute(tenantId: string, paymentId: string, dto: CreateRefundDto, requestId: string | null): Promise<RefundRecord> {
    const p = await this.payments.find(tenantId, paymentId);
    if (!p) throw RefundErrors.error('payment_not_found', 'No such card payment for this tenant');
    if (p.state === 'not_refundable' || !p.acquirerTransactionId)
      throw RefundErrors.error('payment_not_refundable', `A ${p.status} payment has nothing to refund`);
    const cents = dto.amount === undefined ? null : toCents(dto.amount);
    if (p.state === 'authorized') return this.voidAuthorization(p, cents, dto, requestId);

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
        nextAttemptAt: new Date(now.getTime() + FIRST_RESEND_MS),
        now,
      });
      await this.events.refundChanged(tx, p.tenantId, refundView(r), now);
      return r;
    });
    return this.sender.send(refund, p.acquirerTransactionId);
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
        nextAttemptAt: null,
        now,
      });
      await this.events.refundChanged(tx, p.tenantId, refundView(r), now);
      return r;
    });
  }
}
