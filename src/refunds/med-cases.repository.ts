import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RefundablePayment, RefundablePaymentKind } from '../../kernel/common/contracts/refundable-payments.port';
import { exec, maybeOne, Row, rows, Tx } from '../../kernel/platform/database/sql';
import type { Devolucao } from '../provider/pix-devolucoes.port';
import { isUuid } from './refunds.repository';

export type MedStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
export type MedNatureza = 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';

export interface MedCaseRecord {
  id: string;
  tenantId: string;
  paymentId: string;
  paymentKind: RefundablePaymentKind;
  endToEndId: string;
  devolucaoId: string;
  rtrId: string | null;
  natureza: MedNatureza;
  amountCents: number;
  status: MedStatus;
  descricao: string | null;
  motivo: string | null;
  returnedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

// the one place the text columns become the domain's unions
const medCase = (r: Row<'med_cases'>): MedCaseRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  paymentId: r.payment_id,
  paymentKind: r.payment_kind as RefundablePaymentKind,
  endToEndId: r.end_to_end_id,
  devolucaoId: r.devolucao_id,
  rtrId: r.rtr_id,
  natureza: r.natureza as MedNatureza,
  amountCents: Number(r.amount_cents),
  status: r.status as MedStatus,
  descricao: r.descricao,
  motivo: r.motivo,
  returnedAt: r.returned_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Whether a MED devolução in this status takes its amount from the Pix (one that was not made gives it back). */
export const medHolds = (s: MedStatus | null) => s === 'EM_PROCESSAMENTO' || s === 'DEVOLVIDO';

/**
 * MED cases: devoluções of a Pix the platform did not ask for (the payer's side started them, by
 * MED), one per PSP devolução id, and what they take from the payment's balance (`med_cents`, held
 * in `disputed_cents` as far as refunds leave room under the cap).
 */
@Injectable()
export class MedCasesRepository {
  constructor(private readonly ds: DataSource) {}

  /** The case as it was (locked), or null; the payment's balance made if it had none. */
  async lock(tx: Tx, p: RefundablePayment, endToEndId: string, devolucaoId: string): Promise<MedCaseRecord | null> {
    await exec(
      tx,
      `INSERT INTO refund_balances (payment_id, tenant_id, payment_kind, cap_cents, parent_id) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (payment_id) DO NOTHING`,
      [p.paymentId, p.tenantId, p.kind, p.capCents, p.parentId],
    );
    await exec(tx, `SELECT 1 FROM refund_balances WHERE payment_id = $1 FOR UPDATE`, [p.paymentId]);
    const r = await maybeOne<Row<'med_cases'>>(tx, `SELECT * FROM med_cases WHERE end_to_end_id = $1 AND devolucao_id = $2 FOR UPDATE`, [
      endToEndId,
      devolucaoId,
    ]);
    return r ? medCase(r) : null;
  }

  /** Records the devolução's state (made on first sight) and moves the balance by what it now takes. */
  async save(
    tx: Tx,
    p: RefundablePayment,
    before: MedCaseRecord | null,
    endToEndId: string,
    d: Devolucao,
    id: string,
    now: Date,
  ): Promise<MedCaseRecord> {
    const [row] = await rows<Row<'med_cases'>>(
      tx,
      `INSERT INTO med_cases (id, tenant_id, payment_id, payment_kind, end_to_end_id, devolucao_id, rtr_id, natureza, amount_cents, status,
         descricao, motivo, returned_at, created_at, updated_at)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$14)
       ON CONFLICT (end_to_end_id, devolucao_id) DO UPDATE SET status = EXCLUDED.status, rtr_id = COALESCE(EXCLUDED.rtr_id, med_cases.rtr_id),
         motivo = COALESCE(EXCLUDED.motivo, med_cases.motivo), returned_at = COALESCE(EXCLUDED.returned_at, med_cases.returned_at),
         updated_at = EXCLUDED.updated_at
       RETURNING *`,
      [
        id,
        p.tenantId,
        p.paymentId,
        p.kind,
        endToEndId,
        d.id,
        d.rtrId,
        d.natureza,
        d.amountCents,
        d.status,
        d.descricao,
        d.motivo,
        d.status === 'DEVOLVIDO' ? (d.settledAt ?? now) : null,
        now,
      ],
    );
    const delta = (medHolds(d.status) ? d.amountCents : 0) - (before && medHolds(before.status) ? before.amountCents : 0);
    if (delta !== 0)
      await exec(
        tx,
        `UPDATE refund_balances SET med_cents = GREATEST(0, med_cents + $2),
           disputed_cents = LEAST(GREATEST(0, med_cents + $2), cap_cents - refunded_cents) WHERE payment_id = $1`,
        [p.paymentId, delta],
      );
    return medCase(row);
  }

  async find(tenantId: string, id: string): Promise<MedCaseRecord | null> {
    if (!isUuid(id)) return null;
    const r = await maybeOne<Row<'med_cases'>>(this.ds, `SELECT * FROM med_cases WHERE id = $1 AND tenant_id = $2`, [id, tenantId]);
    return r ? medCase(r) : null;
  }

  async list(tenantId: string, paymentId: string | null, limit: number, offset: number): Promise<[MedCaseRecord[], number]> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR payment_id = $2)`;
    const [items, count] = await Promise.all([
      rows<Row<'med_cases'>>(this.ds, `SELECT * FROM med_cases WHERE ${where} ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`, [
        tenantId,
        paymentId,
        limit,
        offset,
      ]),
      maybeOne<{ n: string }>(this.ds, `SELECT count(*) AS n FROM med_cases WHERE ${where}`, [tenantId, paymentId]),
    ]);
    return [items.map(medCase), Number(count?.n ?? 0)];
  }
}
