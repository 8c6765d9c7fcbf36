import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RefundablePayment, RefundablePaymentKind, RefundTotal } from '../../kernel/common/contracts/refundable-payments.port';
import { Db, exec, maybeOne, Row, rows, Tx } from '../../kernel/platform/database/sql';
import type { SplitReversal } from './domain/split-reversal';
import { RefundReason, RefundStatus, RefundTrigger, sourcesOf } from './domain/refund.state-machine';

export interface RefundRecord {
  id: string;
  tenantId: string;
  paymentId: string;
  paymentKind: RefundablePaymentKind;
  rail: 'card' | 'pix' | 'payout';
  /** The payment's link or recurrence (null for a card payment). */
  parentId: string | null;
  method: 'refund' | 'void';
  amountCents: number;
  reason: RefundReason;
  description: string | null;
  status: RefundStatus;
  providerReference: string | null;
  failureCode: string | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  succeededAt: Date | null;
  failedAt: Date | null;
  reversedAt: Date | null;
  /** A split link payment's: what each merchant and the platform's fee give back. */
  splitReversal: SplitReversal | null;
  /** Rail `payout`: where the tenant pays the payer out. */
  payout: PayoutDestination | null;
}

/** Where a payout refund goes: the payer's Pix key (and the name the tenant expects it under). */
export interface PayoutDestination {
  pixKey: string;
  holderName?: string;
}

export interface NewRefund {
  id: string;
  payment: RefundablePayment;
  method: 'refund' | 'void';
  amountCents: number;
  reason: RefundReason;
  description: string | null;
  status: RefundStatus;
  requestId: string | null;
  splitReversal: SplitReversal | null;
  payout: PayoutDestination | null;
  now: Date;
}

export interface RefundChange {
  providerReference?: string | null;
  failureCode?: string | null;
  failureReason?: string | null;
}

type RefundRow = Row<'refunds'>;

/** Where each trigger leads (the machine's table gives every trigger one destination). */
const TARGET: Readonly<Record<RefundTrigger, RefundStatus>> = { succeeded: 'SUCCEEDED', failed: 'FAILED', reversed: 'REVERSED' };

// the one place the text columns become the domain's unions
const refund = (r: RefundRow): RefundRecord => ({
  id: r.id,
  tenantId: r.tenant_id,
  paymentId: r.payment_id,
  paymentKind: r.payment_kind as RefundablePaymentKind,
  rail: r.rail as 'card' | 'pix' | 'payout',
  parentId: r.parent_id,
  method: r.method as 'refund' | 'void',
  amountCents: Number(r.amount_cents),
  reason: r.reason as RefundReason,
  description: r.description,
  status: r.status as RefundStatus,
  providerReference: r.provider_reference,
  failureCode: r.failure_code,
  failureReason: r.failure_reason,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  succeededAt: r.succeeded_at,
  failedAt: r.failed_at,
  reversedAt: r.reversed_at,
  splitReversal: (r.split_reversal as SplitReversal | null) ?? null,
  payout: (r.payout_destination as PayoutDestination | null) ?? null,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

/**
 * Refunds and the balance each payment has left to refund. The balance is the only guard against
 * returning money twice: `reserve` adds to it by a conditional UPDATE under the table's CHECK
 * (refunded + disputed ≤ cap), so concurrent refunds on any replicas can never pass the cap.
 */
@Injectable()
export class RefundsRepository {
  constructor(private readonly ds: DataSource) {}

  /**
   * Reserves `amountCents` of the payment's balance (made on first use); false when it would pass
   * the cap. `exists`: the caller has read the balance row (rows are never deleted), so it is not
   * made again (one round trip fewer per refund).
   */
  async reserve(tx: Tx, p: RefundablePayment, amountCents: number, exists = false): Promise<boolean> {
    if (!exists)
      await exec(
        tx,
        `INSERT INTO refund_balances (payment_id, tenant_id, payment_kind, cap_cents, parent_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (payment_id) DO NOTHING`,
        [p.paymentId, p.tenantId, p.kind, p.capCents, p.parentId],
      );
    const r = await exec(
      tx,
      `UPDATE refund_balances SET refunded_cents = refunded_cents + $2
        WHERE payment_id = $1 AND refunded_cents + disputed_cents + $2 <= cap_cents`,
      [p.paymentId, amountCents],
    );
    return r.count === 1;
  }

  /**
   * Gives a failed or reversed refund's amount back to the balance. What MED devoluções took of a
   * Pix (`med_cents`) and could not be held while this refund held its amount is held now.
   */
  async release(tx: Tx, paymentId: string, amountCents: number): Promise<void> {
    await exec(
      tx,
      `UPDATE refund_balances SET refunded_cents = refunded_cents - $2,
         disputed_cents = GREATEST(disputed_cents, LEAST(med_cents, cap_cents - (refunded_cents - $2)))
       WHERE payment_id = $1`,
      [paymentId, amountCents],
    );
  }

  async insert(tx: Tx, r: NewRefund): Promise<RefundRecord> {
    const [row] = await rows<RefundRow>(
      tx,
      `INSERT INTO refunds (id, tenant_id, payment_id, payment_kind, method, amount_cents, reason, description, status, request_id,
         created_at, updated_at, succeeded_at, rail, parent_id, split_reversal, payout_destination)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$11, CASE WHEN $9 = 'SUCCEEDED' THEN $11::timestamptz END, $12, $13, $14, $15)
       RETURNING *`,
      [
        r.id,
        r.payment.tenantId,
        r.payment.paymentId,
        r.payment.kind,
        r.method,
        r.amountCents,
        r.reason,
        r.description,
        r.status,
        r.requestId,
        r.now,
        r.payment.rail,
        r.payment.parentId,
        r.splitReversal ? JSON.stringify(r.splitReversal) : null,
        r.payout ? JSON.stringify(r.payout) : null,
      ],
    );
    return refund(row);
  }

  /** Fires `trigger` when the refund is still in one of its sources; null when it is not (a duplicate or late event). */
  async transition(tx: Tx, id: string, trigger: RefundTrigger, c: RefundChange, now: Date): Promise<RefundRecord | null> {
    const target = TARGET[trigger];
    const [row] = await rows<RefundRow>(
      tx,
      `UPDATE refunds SET status = $2, updated_at = $3,
         provider_reference = COALESCE(provider_reference, $5),
         failure_code = COALESCE($6, failure_code), failure_reason = COALESCE($7, failure_reason),
         succeeded_at = CASE WHEN $2 = 'SUCCEEDED' THEN $3 ELSE succeeded_at END,
         failed_at = CASE WHEN $2 = 'FAILED' THEN $3 ELSE failed_at END,
         reversed_at = CASE WHEN $2 = 'REVERSED' THEN $3 ELSE reversed_at END
       WHERE id = $1 AND status = ANY($4) RETURNING *`,
      [id, target, now, sourcesOf(trigger), c.providerReference ?? null, c.failureCode ?? null, c.failureReason ?? null],
    );
    return row ? refund(row) : null;
  }

  /** The provider took the refund (its verdict comes later, or its job looks it up): its reference kept. */
  async taken(id: string, providerReference: string | null, now: Date): Promise<void> {
    await exec(
      this.ds,
      `UPDATE refunds SET provider_reference = COALESCE(provider_reference, $2), updated_at = $3 WHERE id = $1 AND status = 'PENDING'`,
      [id, providerReference || null, now],
    );
  }

  async find(db: Db, tenantId: string | null, id: string, lock = false): Promise<RefundRecord | null> {
    if (!isUuid(id)) return null;
    const r = await maybeOne<RefundRow>(
      db,
      `SELECT * FROM refunds WHERE id = $1 AND ($2::uuid IS NULL OR tenant_id = $2)${lock ? ' FOR UPDATE' : ''}`,
      [id, tenantId],
    );
    return r ? refund(r) : null;
  }

  /** The refund, read on the pool: the tenant's, or any tenant's for `null`. */
  get(id: string, tenantId: string | null = null): Promise<RefundRecord | null> {
    return this.find(this.ds, tenantId, id);
  }

  /** The tenant's refunds, of one payment and/or of one parent (a link, a recurrence) when given. */
  async list(
    tenantId: string,
    of: { paymentId?: string | null; parentId?: string | null },
    limit: number,
    offset: number,
  ): Promise<[RefundRecord[], number]> {
    const where = `tenant_id = $1 AND ($2::text IS NULL OR payment_id = $2) AND ($3::text IS NULL OR parent_id = $3)`;
    const by = [tenantId, of.paymentId ?? null, of.parentId ?? null];
    const [items, count] = await Promise.all([
      rows<RefundRow>(this.ds, `SELECT * FROM refunds WHERE ${where} ORDER BY created_at DESC, id LIMIT $4 OFFSET $5`, [
        ...by,
        limit,
        offset,
      ]),
      maybeOne<{ n: string }>(this.ds, `SELECT count(*) AS n FROM refunds WHERE ${where}`, by),
    ]);
    return [items.map(refund), Number(count?.n ?? 0)];
  }

  /** What went back of each parent's payments (a link's, a recurrence's), summed. */
  async totalsOfParents(parentIds: string[]): Promise<Map<string, RefundTotal>> {
    if (!parentIds.length) return new Map();
    const found = await rows<{ parent_id: string; refunded: string; disputed: string; cap: string }>(
      this.ds,
      `SELECT parent_id, sum(refunded_cents) AS refunded, sum(disputed_cents) AS disputed, sum(cap_cents) AS cap
         FROM refund_balances WHERE parent_id = ANY($1::text[]) GROUP BY parent_id`,
      [parentIds],
    );
    return new Map(
      found.map((b) => {
        const refunded = Number(b.refunded);
        const disputed = Number(b.disputed);
        return [b.parent_id, { refundedCents: refunded, disputedCents: disputed, refundableCents: Number(b.cap) - refunded - disputed }];
      }),
    );
  }

  async totals(paymentIds: string[]): Promise<Map<string, RefundTotal>> {
    if (!paymentIds.length) return new Map();
    const found = await rows<Row<'refund_balances'>>(this.ds, `SELECT * FROM refund_balances WHERE payment_id = ANY($1::text[])`, [
      paymentIds,
    ]);
    return new Map(
      found.map((b) => {
        const refunded = Number(b.refunded_cents);
        const disputed = Number(b.disputed_cents);
        return [
          b.payment_id,
          { refundedCents: refunded, disputedCents: disputed, refundableCents: Number(b.cap_cents) - refunded - disputed },
        ];
      }),
    );
  }
}
