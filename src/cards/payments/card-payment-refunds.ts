import { Injectable } from '@nestjs/common';
import { CardPaymentRefunds, RefundablePayment } from '../../../kernel/common/contracts/refundable-payments.port';
import { CardPaymentRecord, CardPaymentsRepository } from './card-payments.repository';
import { SettleCardPayment } from './settle-card-payment';

/** Binds the refunds module's `CardPaymentRefunds`: card payments as refunds see them. */
@Injectable()
export class CardPaymentRefundsOfCards extends CardPaymentRefunds {
  constructor(
    private readonly payments: CardPaymentsRepository,
    private readonly settler: SettleCardPayment,
  ) {
    super();
  }

  async find(tenantId: string | null, paymentId: string): Promise<RefundablePayment | null> {
    const p = await this.payments.findById(paymentId);
    return p && (tenantId === null || p.tenantId === tenantId) ? refundable(p) : null;
  }

  async cancelAuthorization(tenantId: string, paymentId: string): Promise<void> {
    await this.settler.release(tenantId, paymentId);
  }
}

/**
 * ACCEPTED (a sale) and CAPTURED took money, and so did a VOID_FAILED that had been; PREAUTH
 * holds it; nothing else has any to give back (a pre-authorization whose cancel failed is let go
 * in the acquirer's back office, or lapses).
 */
export function refundable(p: CardPaymentRecord): RefundablePayment {
  const tookMoney = p.captureMode === 'SALE' || p.capturedAt !== null;
  const captured = p.status === 'ACCEPTED' || p.status === 'CAPTURED' || (p.status === 'VOID_FAILED' && tookMoney);
  const held = p.status === 'PREAUTH';
  return {
    kind: 'card_payment',
    rail: 'card',
    paymentId: p.id,
    tenantId: p.tenantId,
    parentId: null,
    pix: null,
    allocation: null,
    state: captured ? 'captured' : held ? 'authorized' : 'not_refundable',
    status: p.status,
    capCents: captured ? (p.capturedAmountCents ?? p.amountCents) : p.amountCents,
    acquirerTransactionId: p.acquirerTransactionId,
  };
}
