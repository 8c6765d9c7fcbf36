import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import * as BillingSM from '../domain/billing.state-machine';
import { BillingTrigger } from '../domain/billing.state-machine';
import * as RecurrenceSM from '../domain/recurrence.state-machine';
import { RecurrenceTrigger } from '../domain/recurrence.state-machine';
import {
  Billing,
  BILLING_COLUMNS,
  billingFromRow,
  Recurrence,
  RECURRENCE_COLUMNS,
  recurrenceFromRow,
  RecurrenceRow,
  BillingRow,
} from '../pix.model';
import { exec } from '../sql';
import { Tx, pool } from '../../../kernel/platform/database/sql';

export interface NewRegularBilling {
  tenantId: string;
  recurrenceId: string;
  cycle: number;
  idTx: string;
  amountCents: number;
  dueDate: string;
}

export interface CursorUpdate {
  id: string;
  nextCycle: number;
  nextSendDate: string | null;
  /** A billing was created: ACCEPTED → ACTIVE (FIRST_BILLING_GENERATED). */
  activate: boolean;
}

/** Port: the billing engine's batch reads and writes (claims with SKIP LOCKED, multi-row writes). */
export abstract class EngineRepository {
  /** Due recurrences in (next_send_date, id) order, after `after` (keyset: a run never rescans what it did). */
  abstract claimDueRecurrences(m: Tx, today: string, limit: number, after?: { date: string; id: string }): Promise<Recurrence[]>;
  abstract insertRegularBillings(m: Tx, rows: NewRegularBilling[], nextAttemptAt: Date): Promise<Billing[]>;
  abstract insertSkipped(
    m: Tx,
    rows: { recurrenceId: string; cycle: number; dueDate: string }[],
  ): Promise<{ recurrenceId: string; cycle: number }[]>;
  abstract advanceCursors(m: Tx, rows: CursorUpdate[]): Promise<void>;
  abstract expireEnded(m: Tx, today: string, limit: number): Promise<Recurrence[]>;
  /** Leases up to `limit` billings due for sending until `leaseUntil` (no row lock is held while sending). */
  abstract claimToSend(now: Date, leaseUntil: Date, limit: number): Promise<Billing[]>;
  /** PENDING_SEND/SEND_FAILED → SENT; returns the idTx of the billings that moved. */
  abstract markSent(m: Tx, ids: string[]): Promise<string[]>;
  /** PENDING_SEND → SEND_FAILED (or stays SEND_FAILED), one more attempt, next attempt (null: no more). */
  abstract markFailed(m: Tx, rows: { id: string; nextAttemptAt: Date | null }[], error: string): Promise<void>;
  /** A billing whose send window has not opened: leased until then, no attempt counted, status unchanged. */
  abstract postpone(m: Tx, rows: { id: string; nextAttemptAt: Date }[]): Promise<void>;
}

@Injectable()
export class SqlEngineRepository extends EngineRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async claimDueRecurrences(m: Tx, today: string, limit: number, after?: { date: string; id: string }): Promise<Recurrence[]> {
    // ORDER BY names the table's columns: the bare `next_send_date` would be the SELECT list's
    // `next_send_date::text` alias, a text sort of every due row per claim instead of an index walk.
    const { rows } = await exec<RecurrenceRow>(
      m,
      `SELECT ${RECURRENCE_COLUMNS} FROM pix_recurrences
       WHERE status IN ('ACCEPTED','ACTIVE') AND next_send_date <= $1 AND (next_send_date, id) > ($3::date, $4::uuid)
       ORDER BY pix_recurrences.next_send_date, pix_recurrences.id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [today, limit, after?.date ?? '0001-01-01', after?.id ?? '00000000-0000-0000-0000-000000000000'],
    );
    return rows.map(recurrenceFromRow);
  }

  async insertRegularBillings(m: Tx, rows: NewRegularBilling[], nextAttemptAt: Date): Promise<Billing[]> {
    if (!rows.length) return [];
    const { rows: out } = await exec<BillingRow>(
      m,
      `INSERT INTO pix_billings (tenant_id, recurrence_id, cycle, kind, id_tx, amount_cents, due_date, next_attempt_at)
       SELECT t, r, c, 'REGULAR', x, a, d, $7 FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::bigint[], $6::date[]) AS v(t, r, c, x, a, d)
       ON CONFLICT (recurrence_id, cycle) WHERE cycle IS NOT NULL DO NOTHING
       RETURNING ${BILLING_COLUMNS}`,
      [
        rows.map((b) => b.tenantId),
        rows.map((b) => b.recurrenceId),
        rows.map((b) => b.cycle),
        rows.map((b) => b.idTx),
        rows.map((b) => b.amountCents),
        rows.map((b) => b.dueDate),
        nextAttemptAt,
      ],
    );
    return out.map(billingFromRow);
  }

  async insertSkipped(m: Tx, rows: { recurrenceId: string; cycle: number; dueDate: string }[]) {
    if (!rows.length) return [];
    const { rows: out } = await exec<{ recurrence_id: string; cycle: number }>(
      m,
      `INSERT INTO pix_skipped_cycles (recurrence_id, cycle, due_date, reason)
       SELECT r, c, d, 'MISSED_SEND_WINDOW' FROM unnest($1::uuid[], $2::int[], $3::date[]) AS v(r, c, d)
       ON CONFLICT DO NOTHING RETURNING recurrence_id, cycle`,
      [rows.map((s) => s.recurrenceId), rows.map((s) => s.cycle), rows.map((s) => s.dueDate)],
    );
    return out.map((r) => ({ recurrenceId: r.recurrence_id, cycle: Number(r.cycle) }));
  }

  async advanceCursors(m: Tx, rows: CursorUpdate[]): Promise<void> {
    if (!rows.length) return;
    await exec(
      m,
      `UPDATE pix_recurrences p SET next_cycle = v.c, next_send_date = v.s,
         status = CASE WHEN v.a AND p.status = ANY($5) THEN $6 ELSE p.status END,
         updated_at = CASE WHEN v.a AND p.status = ANY($5) THEN now() ELSE p.updated_at END
       FROM unnest($1::uuid[], $2::int[], $3::date[], $4::bool[]) AS v(id, c, s, a) WHERE p.id = v.id`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.nextCycle),
        rows.map((r) => r.nextSendDate),
        rows.map((r) => r.activate),
        RecurrenceSM.allowedFrom(RecurrenceTrigger.FIRST_BILLING_GENERATED),
        RecurrenceSM.targetOf(RecurrenceTrigger.FIRST_BILLING_GENERATED),
      ],
    );
  }

  async expireEnded(m: Tx, today: string, limit: number): Promise<Recurrence[]> {
    const { rows } = await exec<RecurrenceRow>(
      m,
      // The claim runs once (materialized), never as a subplan rescanned per outer row.
      `WITH picked AS MATERIALIZED (
         SELECT id FROM pix_recurrences WHERE status = ANY($2) AND expiration_date < $1 LIMIT $4 FOR UPDATE SKIP LOCKED)
       UPDATE pix_recurrences p SET status = $3, updated_at = now() FROM picked
       WHERE p.id = picked.id AND p.status = ANY($2)
       RETURNING ${RECURRENCE_COLUMNS.replace(/(^|,\s*)(\w+)/g, '$1p.$2')}`,
      [
        today,
        RecurrenceSM.allowedFrom(RecurrenceTrigger.END_DATE_REACHED),
        RecurrenceSM.targetOf(RecurrenceTrigger.END_DATE_REACHED),
        limit,
      ],
    );
    return rows.map(recurrenceFromRow);
  }

  async claimToSend(now: Date, leaseUntil: Date, limit: number): Promise<Billing[]> {
    const { rows } = await exec<BillingRow>(
      pool(this.ds),
      `WITH picked AS MATERIALIZED (
         SELECT id FROM pix_billings WHERE status IN ('PENDING_SEND','SEND_FAILED') AND next_attempt_at <= $1
         ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE pix_billings b SET next_attempt_at = $2 FROM picked WHERE b.id = picked.id
       RETURNING ${BILLING_COLUMNS.replace(/(^|,\s*)(\w+)/g, '$1b.$2')}`,
      [now, leaseUntil, limit],
    );
    return rows.map(billingFromRow);
  }

  async markSent(m: Tx, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const from = [...BillingSM.allowedFrom(BillingTrigger.SENT_TO_PROVIDER), ...BillingSM.allowedFrom(BillingTrigger.RESEND_SUCCEEDED)];
    const { rows } = await exec<{ id_tx: string }>(
      m,
      `UPDATE pix_billings SET status = $2, send_attempts = send_attempts + 1, next_attempt_at = NULL, last_error = NULL, updated_at = now()
       WHERE id = ANY($1::uuid[]) AND status = ANY($3) RETURNING id_tx`,
      [ids, BillingSM.targetOf(BillingTrigger.SENT_TO_PROVIDER), from],
    );
    return rows.map((r) => r.id_tx);
  }

  async markFailed(m: Tx, rows: { id: string; nextAttemptAt: Date | null }[], error: string): Promise<void> {
    if (!rows.length) return;
    // PENDING_SEND --SEND_FAILED--> SEND_FAILED; a SEND_FAILED billing stays there with one more attempt.
    const from = [...BillingSM.allowedFrom(BillingTrigger.SEND_FAILED), BillingSM.targetOf(BillingTrigger.SEND_FAILED)];
    await exec(
      m,
      `UPDATE pix_billings b SET status = $3, send_attempts = b.send_attempts + 1, next_attempt_at = v.n, last_error = $4, updated_at = now()
       FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, n) WHERE b.id = v.id AND b.status = ANY($5)`,
      [rows.map((r) => r.id), rows.map((r) => r.nextAttemptAt), BillingSM.targetOf(BillingTrigger.SEND_FAILED), error.slice(0, 500), from],
    );
  }

  async postpone(m: Tx, rows: { id: string; nextAttemptAt: Date }[]): Promise<void> {
    if (!rows.length) return;
    await exec(
      m,
      `UPDATE pix_billings b SET next_attempt_at = v.n FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, n)
       WHERE b.id = v.id AND b.status IN ('PENDING_SEND','SEND_FAILED')`,
      [rows.map((r) => r.id), rows.map((r) => r.nextAttemptAt)],
    );
  }
}
