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

export function billingView(b: Billing): BillingDto {
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
    createdAt: new Date(b.createdAt).toISOString(),
    updatedAt: new Date(b.updatedAt).toISOString(),
  };
}
