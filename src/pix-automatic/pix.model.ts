import { BillingStatus } from './domain/billing.state-machine';
import { DayAdjustment, Periodicity } from './domain/calendar';
import { RecurrenceStatus } from './domain/recurrence.state-machine';
import type { AsText, Row } from '../../kernel/platform/database/sql';

export interface Recurrence {
  id: string;
  tenantId: string;
  idTx: string;
  status: RecurrenceStatus;
  amountCents: number;
  currency: 'BRL';
  periodicity: Periodicity;
  firstDueDate: string;
  expirationDate: string | null;
  dayAdjustment: DayAdjustment;
  payerName: string;
  payerTaxId: string;
  description: string | null;
  authorizationUrl: string;
  nextCycle: number;
  nextSendDate: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type BillingKind = 'REGULAR' | 'AD_HOC';

export interface Billing {
  id: string;
  tenantId: string;
  recurrenceId: string;
  cycle: number | null;
  kind: BillingKind;
  idTx: string;
  status: BillingStatus;
  amountCents: number;
  currency: 'BRL';
  dueDate: string;
  sendAttempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const RECURRENCE_COLUMNS = `id, tenant_id, id_tx, status, amount_cents, currency, periodicity, first_due_date::text AS first_due_date,
  expiration_date::text AS expiration_date, day_adjustment, payer_name, payer_tax_id, description, authorization_url, next_cycle,
  next_send_date::text AS next_send_date, created_at, updated_at`;

export const BILLING_COLUMNS = `id, tenant_id, recurrence_id, cycle, kind, id_tx, status, amount_cents, currency, due_date::text AS due_date,
  send_attempts, next_attempt_at, last_error, created_at, updated_at`;

export type RecurrenceRow = AsText<Row<'pix_recurrences'>, 'first_due_date' | 'expiration_date' | 'next_send_date'>;

export function recurrenceFromRow(r: RecurrenceRow): Recurrence {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    idTx: r.id_tx,
    status: r.status as Recurrence['status'],
    amountCents: Number(r.amount_cents),
    currency: r.currency as Recurrence['currency'],
    periodicity: r.periodicity as Recurrence['periodicity'],
    firstDueDate: r.first_due_date,
    expirationDate: r.expiration_date ?? null,
    dayAdjustment: r.day_adjustment as Recurrence['dayAdjustment'],
    payerName: r.payer_name,
    payerTaxId: r.payer_tax_id,
    description: r.description ?? null,
    authorizationUrl: r.authorization_url,
    nextCycle: Number(r.next_cycle),
    nextSendDate: r.next_send_date ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export type BillingRow = AsText<Row<'pix_billings'>, 'due_date'>;

export function billingFromRow(r: BillingRow): Billing {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    recurrenceId: r.recurrence_id,
    cycle: r.cycle === null || r.cycle === undefined ? null : Number(r.cycle),
    kind: r.kind as Billing['kind'],
    idTx: r.id_tx,
    status: r.status as Billing['status'],
    amountCents: Number(r.amount_cents),
    currency: r.currency as Billing['currency'],
    dueDate: r.due_date,
    sendAttempts: Number(r.send_attempts),
    nextAttemptAt: r.next_attempt_at ?? null,
    lastError: r.last_error ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
