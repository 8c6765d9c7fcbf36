import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUuid } from '../tenants/tenants.repository';
import { RecurrenceStatus } from './domain/recurrence.state-machine';
import { Recurrence, RECURRENCE_COLUMNS, recurrenceFromRow, RecurrenceRow } from './pix.model';
import { exec } from './sql';
import { Tx, pool, prepared } from '../../kernel/platform/database/sql';

export type NewRecurrence = Omit<Recurrence, 'status' | 'nextCycle' | 'nextSendDate' | 'createdAt' | 'updatedAt'> & {
  nextSendDate: string | null;
  /** The provider's id of it (API Pix idRec), when the provider assigns one. */
  idRec?: string | null;
};

export interface RecurrenceFilter {
  payerTaxId?: string;
  amountCents?: number;
  firstDueDate?: string;
  status?: RecurrenceStatus;
}

/** What the create answers of the row it stored (the rest is what it sent). */
export type InsertedRecurrence = Pick<Recurrence, 'id' | 'status' | 'authorizationUrl'>;

/** Port: the recurrences store. Every read a caller can reach is scoped by tenant. */
export abstract class RecurrencesRepository {
  abstract insert(r: NewRecurrence): Promise<InsertedRecurrence>;
  abstract findForTenant(tenantId: string, id: string): Promise<Recurrence | null>;
  /** Locks the row for the rest of `m`'s transaction. */
  abstract lockForTenant(m: Tx, tenantId: string, id: string): Promise<Recurrence | null>;
  abstract lockByIdTx(m: Tx, idTx: string): Promise<Recurrence | null>;
  abstract list(tenantId: string, f: RecurrenceFilter, limit: number, offset: number): Promise<[Recurrence[], number]>;
  /** `UPDATE … SET status = to WHERE id AND status = ANY(from)`; false when another writer won. */
  abstract transition(m: Tx, id: string, to: RecurrenceStatus, from: RecurrenceStatus[]): Promise<boolean>;
  /** The refresh operation: the provider's status replaces ours, nothing else changes. */
  abstract overwriteStatus(tenantId: string, id: string, status: RecurrenceStatus): Promise<Recurrence | null>;
}

/** The create's insert, prepared per connection (it runs once per create). */
const INSERT_RECURRENCE = prepared(
  'pix_recurrences.insert',
  `INSERT INTO pix_recurrences (id, tenant_id, id_tx, amount_cents, currency, periodicity, first_due_date, expiration_date, day_adjustment,
     payer_name, payer_tax_id, description, authorization_url, next_send_date, id_rec)
   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
   RETURNING id, status, authorization_url`,
);

@Injectable()
export class SqlRecurrencesRepository extends RecurrencesRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  /** Returns only the columns the create answers: the driver prepares a parser per column and parses every one of each row. */
  async insert(r: NewRecurrence): Promise<InsertedRecurrence> {
    const { rows } = await exec<Pick<RecurrenceRow, 'id' | 'status' | 'authorization_url'>>(pool(this.ds), INSERT_RECURRENCE, [
      r.id,
      r.tenantId,
      r.idTx,
      r.amountCents,
      r.currency,
      r.periodicity,
      r.firstDueDate,
      r.expirationDate,
      r.dayAdjustment,
      r.payerName,
      r.payerTaxId,
      r.description,
      r.authorizationUrl,
      r.nextSendDate,
      r.idRec ?? null,
    ]);
    const row = rows[0];
    return { id: row.id, status: row.status as RecurrenceStatus, authorizationUrl: row.authorization_url };
  }

  async findForTenant(tenantId: string, id: string): Promise<Recurrence | null> {
    if (!isUuid(id)) return null;
    const { rows } = await exec<RecurrenceRow>(
      pool(this.ds),
      `SELECT ${RECURRENCE_COLUMNS} FROM pix_recurrences WHERE id = $1 AND tenant_id = $2`,
      [id, tenantId],
    );
    return rows[0] ? recurrenceFromRow(rows[0]) : null;
  }

  async lockForTenant(m: Tx, tenantId: string, id: string): Promise<Recurrence | null> {
    if (!isUuid(id)) return null;
    const { rows } = await exec<RecurrenceRow>(
      m,
      `SELECT ${RECURRENCE_COLUMNS} FROM pix_recurrences WHERE id = $1 AND tenant_id = $2 FOR UPDATE`,
      [id, tenantId],
    );
    return rows[0] ? recurrenceFromRow(rows[0]) : null;
  }

  async lockByIdTx(m: Tx, idTx: string): Promise<Recurrence | null> {
    const { rows } = await exec<RecurrenceRow>(m, `SELECT ${RECURRENCE_COLUMNS} FROM pix_recurrences WHERE id_tx = $1 FOR UPDATE`, [idTx]);
    return rows[0] ? recurrenceFromRow(rows[0]) : null;
  }

  async list(tenantId: string, f: RecurrenceFilter, limit: number, offset: number): Promise<[Recurrence[], number]> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (f.payerTaxId !== undefined) add('payer_tax_id = ?', f.payerTaxId);
    if (f.amountCents !== undefined) add('amount_cents = ?', f.amountCents);
    if (f.firstDueDate !== undefined) add('first_due_date = ?', f.firstDueDate);
    if (f.status !== undefined) add('status = ?', f.status);
    const cond = where.join(' AND ');
    const { rows } = await exec<RecurrenceRow & { total: string }>(
      pool(this.ds),
      `SELECT ${RECURRENCE_COLUMNS}, count(*) OVER () AS total FROM pix_recurrences WHERE ${cond}
       ORDER BY created_at, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && offset > 0) {
      total = Number(
        (await exec<{ n: string }>(pool(this.ds), `SELECT count(*) AS n FROM pix_recurrences WHERE ${cond}`, params)).rows[0].n,
      );
    }
    return [rows.map(recurrenceFromRow), total];
  }

  async transition(m: Tx, id: string, to: RecurrenceStatus, from: RecurrenceStatus[]): Promise<boolean> {
    const { count } = await exec(m, `UPDATE pix_recurrences SET status = $2, updated_at = now() WHERE id = $1 AND status = ANY($3)`, [
      id,
      to,
      from,
    ]);
    return count === 1;
  }

  async overwriteStatus(tenantId: string, id: string, status: RecurrenceStatus): Promise<Recurrence | null> {
    if (!isUuid(id)) return null;
    const { rows } = await exec<RecurrenceRow>(
      pool(this.ds),
      `UPDATE pix_recurrences SET status = $3, updated_at = CASE WHEN status = $3 THEN updated_at ELSE now() END
       WHERE id = $1 AND tenant_id = $2 RETURNING ${RECURRENCE_COLUMNS}`,
      [id, tenantId, status],
    );
    return rows[0] ? recurrenceFromRow(rows[0]) : null;
  }
}
