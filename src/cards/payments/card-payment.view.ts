import type { RefundTotal } from '../../../kernel/common/contracts/refundable-payments.port';
import { CardPaymentDto } from '../dto/card-payment.dto';
import { rfc3339 } from '../sql';
import { CardPaymentRecord } from './card-payments.repository';

export function toUnits(cents: number): number {
  return Math.round(cents) / 100;
}

/** Integer cents of an amount given in currency units with at most 2 decimals: the one conversion of common/formats/money. */
export { toCents } from '../../../kernel/common/formats/money';

/** The payment as answered by the routes and carried by the acquiring.financial_transaction webhook. */
/**
 * `refunds`: what went back of it, for the routes (null: nothing yet); left out, the view has no
 * refund fields (the `acquiring.financial_transaction` webhook, whose refunds have their own).
 */
export function paymentView(p: CardPaymentRecord, refunds?: RefundTotal | null): CardPaymentDto {
  const v: CardPaymentDto = {
    paymentId: p.id,
    accepted: true,
    status: p.status,
    transactionMethod: 'CARD',
    amount: toUnits(p.amountCents),
    currency: 'BRL',
    installments: p.installments,
    captureMode: p.captureMode,
    slugStoredCard: p.storedCardId,
    brand: p.brand,
    first4: p.first4,
    last4: p.last4,
    securityCodePresented: p.securityCodePresented,
    createdAt: rfc3339(p.createdAt),
    updatedAt: rfc3339(p.updatedAt),
  };
  if (p.capturedAmountCents !== null) v.capturedAmount = toUnits(p.capturedAmountCents);
  if (p.threeDsTransStatus) v.threeDs = { transStatus: p.threeDsTransStatus, eci: p.eci };
  if (p.authorizationCode) v.authorizationCode = p.authorizationCode;
  if (p.reason) v.reason = p.reason;
  if (p.documentId) v.documentId = p.documentId;
  if (p.description) v.description = p.description;
  if (p.capturedAt) v.capturedAt = rfc3339(p.capturedAt);
  if (p.voidedAt) v.voidedAt = rfc3339(p.voidedAt);
  if (refunds) {
    v.refundedAmount = toUnits(refunds.refundedCents);
    if (refunds.disputedCents) v.disputedAmount = toUnits(refunds.disputedCents);
    v.refundableAmount = toUnits(refunds.refundableCents);
  } else if (refunds === null && (p.status === 'ACCEPTED' || p.status === 'CAPTURED')) {
    v.refundedAmount = 0;
    v.refundableAmount = toUnits(p.capturedAmountCents ?? p.amountCents);
  }
  return v;
}
