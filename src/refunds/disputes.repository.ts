import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RefundablePayment } from '../../kernel/common/contracts/refundable-payments.port';
import { exec, maybeOne, Row, rows, Tx } from '../../kernel/platform/database/sql';
import { DisputeStageSeen, DisputeState, DisputeStatus } from './domain/dispute';
import { isUuid } from './refunds.repository';

export interface DisputeRecord {
  id: string;
  tenantId: string;
  paymentId: string;
  providerReference: string;
  stage: string;
  status: DisputeStatus;
  amountCents: number;
  heldCents: number;
  reasonCode: string | null;
  defendBy: Date | null;
  stages: DisputeStageSeen[];
  createdAt: Date;
  updatedAt: Date;
}

type DisputeRow = Omit<Row<'disputes'>, 'stages'> & { stages: DisputeStageSeen[] };

// the one place the text columns become the domain's unions
const dispute = (r: DisputeRow): DisputeRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  paymentId: r.payment_id,
  providerReference: r.provider_reference,
  stage: r.stage,
  status: r.status as DisputeStatus,
  amountCents: Number(r.amount_cents),
  heldCents: Number(r.held_cents),
  reasonCode: r.reason_code,
  defendBy: r.defend_by,
  stages: r.stages,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** One dispute per payment, its stages as reported and the state derived from them. */
@Injectable()
export class DisputesRepository {
  constructor(private readonly ds: DataSource) {}

  /** The payment's dispute, locked, made (with the payment's balance) on its first stage. */
  async lockOrCreate(tx: Tx, p: RefundablePayment, id: string, providerReference: string, now: Date): Promise<DisputeRecord> {
    await exec(
      tx,
      `INSERT INTO refund_balances (payment_id, tenant_id, payment_kind, cap_cents) VALUES ($1, $2, $3, $4) ON CONFLICT (payment_id) DO NOTHING`,
      [p.paymentId, p.tenantId, p.kind, p.capCents],
    );
    await exec(
      tx,
      `INSERT INTO disputes (id, tenant_id, payment_id, payment_kind, provider_reference, stage, status, amount_cents, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, 'NONE', 'INQUIRY', 0, $6, $6) ON CONFLICT (payment_id) DO NOTHING`,
      [id, p.tenantId, p.paymentId, p.kind, providerReference, now],
    );
    const [row] = await rows<DisputeRow>(tx, `SELECT * FROM disputes WHERE payment_id = $1 FOR UPDATE`, [p.paymentId]);
    return dispute(row);
  }

  /**
   * Saves the derived state and sets what the dispute holds from the payment's balance: the
   * state's held amount, but never more than what refunds left (a payment refunded and then
   * charged back cannot go below nothing); answers the amount held.
   */
  async save(
    tx: Tx,
    d: DisputeRecord,
    stages: DisputeStageSeen[],
    s: DisputeState,
    extra: { reasonCode: string | null; defendBy: string | null },
    now: Date,
  ): Promise<DisputeRecord> {
    const [held] = await rows<{ disputed_cents: string }>(
      tx,
      `UPDATE refund_balances SET disputed_cents = LEAST($2::bigint, cap_cents - refunded_cents) WHERE payment_id = $1 RETURNING disputed_cents`,
      [d.paymentId, s.heldCents],
    );
    const [row] = await rows<DisputeRow>(
      tx,
      `UPDATE disputes SET stage = $2, status = $3, amount_cents = $4, held_cents = $5, stages = $6::jsonb,
         reason_code = COALESCE($7, reason_code), defend_by = COALESCE($8::timestamptz, defend_by), updated_at = $9
       WHERE id = $1 RETURNING *`,
      [d.id, s.stage, s.status, s.amountCents, Number(held.disputed_cents), JSON.stringify(stages), extra.reasonCode, extra.defendBy, now],
    );
    return dispute(row);
  }

  async find(tenantId: string, id: string): Promise<DisputeRecord | null> {
    if (!isUuid(id)) return null;
    const r = await maybeOne<DisputeRow>(this.ds, `SELECT * FROM disputes WHERE id = $1 AND tenant_id = $2`, [id, tenantId]);
    return r ? dispute(r) : null;
  }

  async list(tenantId: string, paymentId: string | null, limit: number, offset: number): Promise<[DisputeRecord[], number]> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR payment_id = $2) AND stage <> 'NONE'`;
    const [items, count] = await Promise.all([
      rows<DisputeRow>(this.ds, `SELECT * FROM disputes WHERE ${where} ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`, [
        tenantId,
        paymentId,
        limit,
        offset,
      ]),
      maybeOne<{ n: string }>(this.ds, `SELECT count(*) AS n FROM disputes WHERE ${where}`, [tenantId, paymentId]),
    ]);
    return [items.map(dispute), Number(count?.n ?? 0)];
  }
}
