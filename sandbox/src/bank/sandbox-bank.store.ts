import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BankEvent } from './bank-rules';
import { AsText, Row, Tx, pool, prepared, rows, transaction } from '../../../kernel/platform/database/sql';

export interface BankRecurrence {
  recurrenceId: string;
  idTx: string;
  receiverId: string;
  receiverName: string;
  status: string;
  amountCents: number;
  periodicity: string;
  firstDueDate: string;
  expirationDate: string | null;
  dayAdjustment: string;
  payerName: string;
  payerTaxId: string;
  description: string | null;
  authorizationDeadline: string;
}

export interface BankBilling {
  idTx: string;
  billingId: string | null;
  recurrenceId: string;
  status: string;
  amountCents: number | null;
  dueDate: string | null;
}

const REC = `recurrence_id, id_tx, receiver_id, receiver_name, status, amount_cents, periodicity, first_due_date::text AS first_due_date,
  expiration_date::text AS expiration_date, day_adjustment, payer_name, payer_tax_id, description, authorization_deadline::text AS authorization_deadline`;
const BIL = `id_tx, billing_id, recurrence_id, status, amount_cents, due_date::text AS due_date`;

/** The create, prepared per connection (it runs once per recurrence create). */
const INSERT_RECURRENCE = prepared(
  'sandbox_bank_recurrences.insert',
  `INSERT INTO sandbox_bank_recurrences (recurrence_id, id_tx, receiver_id, receiver_name, status, amount_cents, periodicity, first_due_date,
     expiration_date, day_adjustment, payer_name, payer_tax_id, description, authorization_deadline)
   VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, $9, $10, $11, $12, $13)
   ON CONFLICT (recurrence_id) DO UPDATE SET recurrence_id = EXCLUDED.recurrence_id
   RETURNING recurrence_id, status`,
);

type RecurrenceRow = AsText<Row<'sandbox_bank_recurrences'>, 'first_due_date' | 'expiration_date' | 'authorization_deadline'>;

function rec(r: RecurrenceRow): BankRecurrence {
  return {
    recurrenceId: r.recurrence_id,
    idTx: r.id_tx,
    receiverId: r.receiver_id,
    receiverName: r.receiver_name,
    status: r.status,
    amountCents: Number(r.amount_cents),
    periodicity: r.periodicity,
    firstDueDate: r.first_due_date,
    expirationDate: r.expiration_date ?? null,
    dayAdjustment: r.day_adjustment,
    payerName: r.payer_name,
    payerTaxId: r.payer_tax_id,
    description: r.description ?? null,
    authorizationDeadline: r.authorization_deadline,
  };
}

type BillingRow = AsText<Row<'sandbox_bank_billings'>, 'due_date'>;

function bil(r: BillingRow): BankBilling {
  return {
    idTx: r.id_tx,
    billingId: r.billing_id ?? null,
    recurrenceId: r.recurrence_id,
    status: r.status,
    amountCents: r.amount_cents === null ? null : Number(r.amount_cents),
    dueDate: r.due_date ?? null,
  };
}

/** The sandbox bank's books (its own `sandbox_bank_*` tables). Status changes are conditional updates. */
@Injectable()
export class SandboxBankStore {
  constructor(private readonly ds: DataSource) {}

  get manager(): Tx {
    return pool(this.ds);
  }

  transaction<T>(fn: (m: Tx) => Promise<T>): Promise<T> {
    return transaction(this.ds, fn);
  }

  /** Idempotent per recurrenceId: a repeat answers the recurrence as first stored (one round trip). */
  /** The bank's answer to a create: the recurrence's id and status (a retried create finds the row it made). */
  async insertRecurrence(r: BankRecurrence): Promise<Pick<BankRecurrence, 'recurrenceId' | 'status'>> {
    const out = await rows<Pick<RecurrenceRow, 'recurrence_id' | 'status'>>(pool(this.ds), INSERT_RECURRENCE, [
      r.recurrenceId,
      r.idTx,
      r.receiverId,
      r.receiverName,
      r.amountCents,
      r.periodicity,
      r.firstDueDate,
      r.expirationDate,
      r.dayAdjustment,
      r.payerName,
      r.payerTaxId,
      r.description,
      r.authorizationDeadline,
    ]);
    return { recurrenceId: out[0].recurrence_id, status: out[0].status };
  }

  /** The bank's id (the idRec) of the API Pix rec whose `vinculo.contrato` is this one, or null. */
  async recurrenceIdOfContrato(contrato: string): Promise<string | null> {
    const r = await rows<{ recurrence_id: string }>(
      pool(this.ds),
      `SELECT recurrence_id FROM sandbox_bank_recurrences WHERE contrato = $1 AND id_rec IS NOT NULL ORDER BY created_at DESC LIMIT 1`,
      [contrato],
    );
    return r[0]?.recurrence_id ?? null;
  }

  async findRecurrence(id: string, m: Tx = pool(this.ds)): Promise<BankRecurrence | null> {
    const r = await rows<RecurrenceRow>(m, `SELECT ${REC} FROM sandbox_bank_recurrences WHERE recurrence_id = $1`, [id]);
    return r[0] ? rec(r[0]) : null;
  }

  /** Conditional move; null when the recurrence was not in one of `from`. */
  async moveRecurrence(m: Tx, id: string, to: string, from: string[]): Promise<BankRecurrence | null> {
    const r = await rows<RecurrenceRow>(
      m,
      `UPDATE sandbox_bank_recurrences SET status = $2, updated_at = now() WHERE recurrence_id = $1 AND status = ANY($3) RETURNING ${REC}`,
      [id, to, from],
    );
    return r[0] ? rec(r[0]) : null;
  }

  /** Moves every open (RECEIVED/ACTIVE) billing of a recurrence to `to`. */
  async closeOpenBillings(m: Tx, recurrenceId: string, to: string): Promise<BankBilling[]> {
    const r = await rows<BillingRow>(
      m,
      `UPDATE sandbox_bank_billings SET status = $2, updated_at = now() WHERE recurrence_id = $1 AND status IN ('RECEIVED','ACTIVE') RETURNING ${BIL}`,
      [recurrenceId, to],
    );
    return r.map(bil);
  }

  async recurrencesById(ids: string[]): Promise<Map<string, BankRecurrence>> {
    const r = await rows<RecurrenceRow>(pool(this.ds), `SELECT ${REC} FROM sandbox_bank_recurrences WHERE recurrence_id = ANY($1)`, [ids]);
    return new Map(r.map((x) => [x.recurrence_id, rec(x)]));
  }

  async billingsByIdTx(idTxs: string[]): Promise<Map<string, BankBilling>> {
    const r = await rows<BillingRow>(pool(this.ds), `SELECT ${BIL} FROM sandbox_bank_billings WHERE id_tx = ANY($1)`, [idTxs]);
    return new Map(r.map((x) => [x.id_tx, bil(x)]));
  }

  async insertBillings(
    m: Tx,
    b: { idTx: string; billingId: string; recurrenceId: string; amountCents: number; dueDate: string }[],
  ): Promise<string[]> {
    if (!b.length) return [];
    const r = await rows(
      m,
      `INSERT INTO sandbox_bank_billings (id_tx, billing_id, recurrence_id, status, amount_cents, due_date)
       SELECT x, b, r, 'RECEIVED', a, d FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::date[]) AS v(x, b, r, a, d)
       ON CONFLICT (id_tx) DO NOTHING RETURNING id_tx`,
      [b.map((x) => x.idTx), b.map((x) => x.billingId), b.map((x) => x.recurrenceId), b.map((x) => x.amountCents), b.map((x) => x.dueDate)],
    );
    return r.map((x) => x.id_tx);
  }

  /** A recurrence's first billing makes it ACTIVE at the bank too. */
  async activateRecurrences(m: Tx, ids: string[]): Promise<void> {
    if (ids.length)
      await rows(
        m,
        `UPDATE sandbox_bank_recurrences SET status = 'ACTIVE', updated_at = now() WHERE recurrence_id = ANY($1) AND status = 'ACCEPTED'`,
        [ids],
      );
  }

  /** Cancels a billing, or records the cancel of one not received yet (a tombstone that refuses it later). */
  async cancelBilling(m: Tx, idTx: string, recurrenceId: string): Promise<{ billing: BankBilling; changed: boolean }> {
    const moved = await rows<BillingRow>(
      m,
      `UPDATE sandbox_bank_billings SET status = 'CANCELLED_RECEIVER', updated_at = now() WHERE id_tx = $1 AND status IN ('RECEIVED','ACTIVE') RETURNING ${BIL}`,
      [idTx],
    );
    if (moved[0]) return { billing: bil(moved[0]), changed: true };
    await rows(
      m,
      `INSERT INTO sandbox_bank_billings (id_tx, recurrence_id, status) VALUES ($1, $2, 'CANCELLED_RECEIVER') ON CONFLICT (id_tx) DO NOTHING`,
      [idTx, recurrenceId],
    );
    const r = await rows<BillingRow>(m, `SELECT ${BIL} FROM sandbox_bank_billings WHERE id_tx = $1`, [idTx]);
    return { billing: bil(r[0]), changed: false };
  }

  async expirePending(m: Tx, day: string): Promise<BankRecurrence[]> {
    const r = await rows<RecurrenceRow>(
      m,
      `UPDATE sandbox_bank_recurrences SET status = 'EXPIRED', updated_at = now() WHERE status = 'PENDING' AND authorization_deadline < $1 RETURNING ${REC}`,
      [day],
    );
    return r.map(rec);
  }

  async expireEnded(m: Tx, day: string): Promise<BankRecurrence[]> {
    const r = await rows<RecurrenceRow>(
      m,
      `UPDATE sandbox_bank_recurrences SET status = 'EXPIRED', updated_at = now() WHERE status IN ('ACCEPTED','ACTIVE') AND expiration_date < $1 RETURNING ${REC}`,
      [day],
    );
    return r.map(rec);
  }

  async activateReceived(m: Tx): Promise<BankBilling[]> {
    const r = await rows<BillingRow>(
      m,
      `UPDATE sandbox_bank_billings SET status = 'ACTIVE', updated_at = now() WHERE status = 'RECEIVED' RETURNING ${BIL}`,
      [],
    );
    return r.map(bil);
  }

  /** Billings of the service face due by `day` (a PSP-face cobr settles by its attempts: SandboxCobrSettlement). */
  async lockDue(m: Tx, day: string): Promise<BankBilling[]> {
    const r = await rows<BillingRow>(
      m,
      `SELECT ${BIL} FROM sandbox_bank_billings WHERE status = 'ACTIVE' AND due_date <= $1 AND id_rec IS NULL ORDER BY sandbox_bank_billings.due_date, sandbox_bank_billings.id_tx FOR UPDATE SKIP LOCKED`,
      [day],
    );
    return r.map(bil);
  }

  async settle(m: Tx, settled: { idTx: string; status: string }[]): Promise<void> {
    if (!settled.length) return;
    await rows(
      m,
      `UPDATE sandbox_bank_billings b SET status = v.s, updated_at = now() FROM unnest($1::text[], $2::text[]) AS v(x, s) WHERE b.id_tx = v.x AND b.status = 'ACTIVE'`,
      [settled.map((s) => s.idTx), settled.map((s) => s.status)],
    );
  }

  async insertEvents(m: Tx, events: BankEvent[]): Promise<void> {
    if (!events.length) return;
    await rows(
      m,
      `INSERT INTO sandbox_bank_events (event_type, id_tx, payload) SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])`,
      [events.map((e) => e.eventType), events.map((e) => e.idTx), events.map((e) => JSON.stringify(e))],
    );
  }

  async undelivered(limit: number): Promise<{ id: string; payload: BankEvent; attempts: number }[]> {
    return rows(pool(this.ds), `SELECT id, payload, attempts FROM sandbox_bank_events WHERE delivered_at IS NULL ORDER BY id LIMIT $1`, [
      limit,
    ]);
  }

  async markDelivered(ids: string[]): Promise<void> {
    if (ids.length)
      await rows(
        pool(this.ds),
        `UPDATE sandbox_bank_events SET delivered_at = now(), attempts = attempts + 1 WHERE id = ANY($1::bigint[])`,
        [ids],
      );
  }

  async countAttempt(ids: string[]): Promise<void> {
    if (ids.length) await rows(pool(this.ds), `UPDATE sandbox_bank_events SET attempts = attempts + 1 WHERE id = ANY($1::bigint[])`, [ids]);
  }
}
