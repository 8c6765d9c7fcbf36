import type { RefundTotal } from '../../kernel/common/contracts/refundable-payments.port';
import { BillingDto } from './dto/billing.dto';
import { RecurrenceDto } from './dto/recurrence.dto';
import { Billing, Recurrence } from './pix.model';
import { fromCents } from './sql';

export function recurrenceView(r: Recurrence): RecurrenceDto {
  return {
    recurrenceId: r.id,
    status: r.status,
    amount: fromCents(r.amountCents),
    currency: r.currency,
    periodicity: r.periodicity,
    firstDueDate: r.firstDueDate,
    expirationDate: r.expirationDate,
    dayAdjustment: r.dayAdjustment,
    payerName: r.payerName,
    payerTaxId: r.payerTaxId,
    description: r.description,
    authorizationUrl: r.authorizationUrl,
    createdAt: new Date(r.createdAt).toISOString(),
    updatedAt: new Date(r.updatedAt).toISOString(),
  };
}

/**
 * A billing as the routes show it. `money`: what went back of it (RefundTotals), absent when none
 * did; `paidByPix`: it took a Pix this service received (COMPLETED on API Pix), so all of it can
 * be refunded while nothing went back.
 */
export function billingView(b: Billing, money?: { total?: RefundTotal; paidByPix: boolean }): BillingDto {
  const t = money?.total;
  return {
    id: b.id,
    recurrenceId: b.recurrenceId,
    status: b.status,
    amount: fromCents(b.amountCents),
    currency: b.currency,
    dueDate: b.dueDate,
    idTx: b.idTx,
    sendAttempts: b.sendAttempts,
    kind: b.kind,
    lastError: b.lastError,
    refundedAmount: fromCents(t?.refundedCents ?? 0),
    disputedAmount: fromCents(t?.disputedCents ?? 0),
    refundableAmount: fromCents(t ? t.refundableCents : money?.paidByPix ? b.amountCents : 0),
    createdAt: new Date(b.createdAt).toISOString(),
    updatedAt: new Date(b.updatedAt).toISOString(),
  };
}
