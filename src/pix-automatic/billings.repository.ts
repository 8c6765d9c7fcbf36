import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '../tenants/tenants.repository';
import { BillingStatus } from './domain/billing.state-machine';
import { Billing, BILLING_COLUMNS, billingFromRow, BillingRow } from './pix.model';
import { exec } from './sql';
import { Tx, pool } from '../../kernel/platform/database/sql';

export interface NewAdHocBilling {
  tenantId: string;
  recurrenceId: string;
  idTx: string;
  amountCents: number;
  dueDate: string;
  /** When the engine may send it (now: the create call sends it at once and the engine retries on failure). */
  nextAttemptAt: Date;
}

export interface TransitionExtras {
  /** Increment sendAttempts by one. */
  countAttempt?: boolean;
  /** null stops retries; a date schedules the next one. */
  nextAttemptAt?: Date | null;
  lastError?: string | null;
}

/** Port: the billings store. */
export abstract class BillingsRepository {
  abstract insertAdHoc(m: Tx, b: NewAdHocBilling): Promise<Billing>;
  abstract findForTenant(tenantId: string, id: string): Promise<Billing | null>;
  /** Any tenant's billing, by id or by its idTx (a cobr's txid): for the refunds contract. */
  abstract find(by: { id: string } | { idTx: string }): Promise<Billing | null>;
  abstract lockForTenant(m: Tx, tenantId: string, id: string): Promise<Billing | null>;
  abstract lockByIdTx(m: Tx, idTx: string): Promise<Billing | null>;
  abstract listForRecurrence(tenantId: string, recurrenceId: string, limit: number, offset: number): Promise<[Billing[], number]>;
  /** Billings of a recurrence the receiver can still cancel, locked. */
  abstract lockCancelable(m: Tx, recurrenceId: string, states: BillingStatus[]): Promise<Billing[]>;
  /** Conditional update; returns the updated billing, or null when its status was not in `from`. */
  abstract transition(m: Tx, id: string, to: BillingStatus, from: BillingStatus[], extras?: TransitionExtras): Promise<Billing | null>;
}

@Injectable()
export class SqlBillingsRepository extends BillingsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async insertAdHoc(m: Tx, b: NewAdHocBilling): Promise<Billing> {
    const { rows } = await exec<BillingRow>(
      m,
      `INSERT INTO pix_billings (tenant_id, recurrence_id, kind, id_tx, amount_cents, due_date, next_attempt_at)
       VALUES ($1, $2, 'AD_HOC', $3, $4, $5, $6) RETURNING ${BILLING_COLUMNS}`,
      [b.tenantId, b.recurrenceId, b.idTx, b.amountCents, b.dueDate, b.nextAttemptAt],
    );
    return billingFromRow(rows[0]);
  }

  async findForTenant(tenantId: string, id: string): Promise<Billing | null> {
    if (!isUuid(id)) return null;
    const { rows } = await exec<BillingRow>(pool(this.ds), `SELECT ${BILLING_COLUMNS} FROM pix_billings WHERE id = $1 AND tenant_id = $2`, [
      id,
      tenantId,
    ]);
    return rows[0] ? billingFromRow(rows[0]) : null;
  }

  async find(by: { id: string } | { idTx: string }): Promise<Billing | null> {
    if ('id' in by && !isUuid(by.id)) return null;
    const { rows } = await exec<BillingRow>(
      pool(this.ds),
      `SELECT ${BILLING_COLUMNS} FROM pix_billings WHERE ${'id' in by ? 'id' : 'id_tx'} = $1`,
      ['id' in by ? by.id : by.idTx],
    );
    return rows[0] ? billingFromRow(rows[0]) : null;
  }

  async lockForTenant(m: Tx, tenantId: string, id: string): Promise<Billing | null> {
    if (!isUuid(id)) return null;
    const { rows } = await exec<BillingRow>(m, `SELECT ${BILLING_COLUMNS} FROM pix_billings WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [
      id,
      tenantId,
    ]);
    return rows[0] ? billingFromRow(rows[0]) : null;
  }

  async lockByIdTx(m: Tx, idTx: string): Promise<Billing | null> {
    const { rows } = await exec<BillingRow>(m, `SELECT ${BILLING_COLUMNS} FROM pix_billings WHERE id_tx = $1 FOR UPDATE`, [idTx]);
    return rows[0] ? billingFromRow(rows[0]) : null;
  }

  async listForRecurrence(tenantId: string, recurrenceId: string, limit: number, offset: number): Promise<[Billing[], number]> {
    const { rows } = await exec<BillingRow & { total: string }>(
      pool(this.ds),
      `SELECT ${BILLING_COLUMNS}, count(*) OVER () AS total FROM pix_billings WHERE recurrence_id = $1 AND tenant_id = $2
       ORDER BY pix_billings.due_date, pix_billings.created_at, pix_billings.id LIMIT $3 OFFSET $4`,
      [recurrenceId, tenantId, limit, offset],
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && offset > 0) {
      total = Number(
        (
          await exec<{ n: string }>(pool(this.ds), `SELECT count(*) AS n FROM pix_billings WHERE recurrence_id = $1 AND tenant_id = $2`, [
            recurrenceId,
            tenantId,
          ])
        ).rows[0].n,
      );
    }
    return [rows.map(billingFromRow), total];
  }

  async lockCancelable(m: Tx, recurrenceId: string, states: BillingStatus[]): Promise<Billing[]> {
    const { rows } = await exec<BillingRow>(
      m,
      `SELECT ${BILLING_COLUMNS} FROM pix_billings WHERE recurrence_id = $1 AND status = ANY($2) ORDER BY pix_billings.due_date, pix_billings.id FOR UPDATE`,
      [recurrenceId, states],
    );
    return rows.map(billingFromRow);
  }

  async transition(m: Tx, id: string, to: BillingStatus, from: BillingStatus[], x: TransitionExtras = {}): Promise<Billing | null> {
    const sets = ['status = $2', 'updated_at = now()'];
    const params: unknown[] = [id, to, from];
    if (x.countAttempt) sets.push('send_attempts = send_attempts + 1');
    if (x.nextAttemptAt !== undefined) {
      params.push(x.nextAttemptAt);
      sets.push(`next_attempt_at = $${params.length}`);
    }
    if (x.lastError !== undefined) {
      params.push(x.lastError);
      sets.push(`last_error = $${params.length}`);
    }
    const { rows } = await exec<BillingRow>(
      m,
      `UPDATE pix_billings SET ${sets.join(', ')} WHERE id = $1 AND status = ANY($3) RETURNING ${BILLING_COLUMNS}`,
      params,
    );
    return rows[0] ? billingFromRow(rows[0]) : null;
  }
}
