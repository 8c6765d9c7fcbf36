import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CardPaymentRefunds, RefundablePayment } from '../../common/contracts/refundable-payments.port';
import { maybeOne } from '../../platform/database/sql';
import { CardPaymentRecord, CardPaymentsRepository } from './card-payments.repository';
import { SettleCardPayment } from './settle-card-payment';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Binds the refunds module's `CardPaymentRefunds`: card payments as refunds see them. */
@Injectable()
export class CardPaymentRefundsOfCards extends CardPaymentRefunds {
  constructor(
    private readonly ds: DataSource,
    private readonly payments: CardPaymentsRepository,
    private readonly settler: SettleCardPayment,
  ) {
    super();
  }

  async find(tenantId: string | null, paymentId: string): Promise<RefundablePayment | null> {
    if (!UUID.test(paymentId)) return null;
    const tenant =
      tenantId ??
      (await maybeOne<{ tenant_id: string }>(this.ds, `SELECT tenant_id FROM card_payments WHERE id = $1`, [paymentId]))?.tenant_id;
    if (!tenant) return null;
    const p = await this.payments.find(this.ds, tenant, paymentId);
    return p ? refundable(p) : null;
  }

  async cancelAuthorization(tenantId: string, paymentId: string): Promise<void> {
    await this.settler.release(tenantId, paymentId);
  }
}

/** ACCEPTED (a sale) and CAPTURED took money; PREAUTH holds it; nothing else has any to give back. */
export function refundable(p: CardPaymentRecord): RefundablePayment {
  const captured = p.status === 'ACCEPTED' || p.status === 'CAPTURED';
  return {
    kind: 'card_payment',
    paymentId: p.id,
    tenantId: p.tenantId,
    state: captured ? 'captured' : p.status === 'PREAUTH' ? 'authorized' : 'not_refundable',
    status: p.status,
    capCents: captured ? (p.capturedAmountCents ?? p.amountCents) : p.amountCents,
    acquirerTransactionId: p.acquirerTransactionId,
  };
}
