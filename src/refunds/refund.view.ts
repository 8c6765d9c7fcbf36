import { fromCents } from '../../kernel/common/formats/money';
import { rfc3339 } from '../../kernel/common/formats/rfc3339';
import { RefundDto } from './dto/refund.dto';
import type { RefundRecord } from './refunds.repository';

/** A refund as its routes answer it and its webhook carries it. */
export function refundView(r: RefundRecord): RefundDto {
  const v: RefundDto = {
    refundId: r.id,
    paymentId: r.paymentId,
    paymentKind: r.paymentKind,
    rail: r.rail,
    method: r.method,
    amount: fromCents(r.amountCents),
    currency: 'BRL',
    reason: r.reason,
    status: r.status,
    createdAt: rfc3339(r.createdAt),
    updatedAt: rfc3339(r.updatedAt),
  };
  if (r.description) v.description = r.description;
  if (r.providerReference) v.providerReference = r.providerReference;
  if (r.failureCode) v.failureCode = r.failureCode;
  if (r.failureReason) v.failureReason = r.failureReason;
  if (r.succeededAt) v.succeededAt = rfc3339(r.succeededAt);
  if (r.failedAt) v.failedAt = rfc3339(r.failedAt);
  if (r.reversedAt) v.reversedAt = rfc3339(r.reversedAt);
  if (r.payout) v.payout = { ...r.payout, ...(r.rail === 'payout' && r.providerReference ? { endToEndId: r.providerReference } : {}) };
  if (r.splitReversal)
    v.splitReversal = {
      merchants: r.splitReversal.merchants.map((m) => ({ merchantId: m.merchantId, amount: fromCents(m.amountCents) })),
      platformFee: fromCents(r.splitReversal.platformFeeCents),
    };
  return v;
}
