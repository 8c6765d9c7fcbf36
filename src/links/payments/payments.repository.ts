import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PAYMENT_COLUMNS, PaymentItem, toPayment, PaymentRow } from './payment.types';
import type { LinkStatus } from '../domain/link.state-machine';
import { Tx } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';

export type NewPaymentItem = Omit<PaymentItem, 'seq' | 'createdAt' | 'updatedAt'>;

/** Port: payment items, use holds and the link counters they move. Writes take the caller's transaction. */
export abstract class PaymentsRepository {
  /** Inserts the item as the link's next attempt (attemptCount + 1, in the same statement). */
  abstract insert(m: Tx, p: NewPaymentItem, now: Date): Promise<PaymentItem>;
  abstract find(id: string): Promise<PaymentItem | null>;
  abstract lock(m: Tx, id: string): Promise<PaymentItem | null>;
  /** Conditional transition: the updated item, or null when it was not in `from`. */
  abstract transition(m: Tx, id: string, from: string[], to: string, now: Date, paidAt: Date | null): Promise<PaymentItem | null>;
  /** paidCount + 1 and totalPaid + amount; answers the new counters. */
  abstract countPaid(
    m: Tx,
    linkId: string,
    amountCents: number,
    now: Date,
  ): Promise<{ paidCount: number; maxUses: number | null; status: LinkStatus }>;
  abstract activeHolds(m: Tx, linkId: string, now: Date): Promise<number>;
  abstract hold(m: Tx, paymentId: string, linkId: string, until: Date): Promise<void>;
  abstract release(m: Tx, paymentId: string): Promise<void>;
  abstract dropExpiredHolds(now: Date): Promise<number>;
  /** A card attempt about to be sent to the acquirer, checked again after `checkAfterSeconds` if still here. */
  abstract savePendingCard(p: NewPaymentItem, checkAfterSeconds: number): Promise<void>;
  abstract dropPendingCard(m: Tx | null, paymentId: string): Promise<void>;
  /** Pending card attempts whose time has come, leased for `leaseSeconds` (SKIP LOCKED: replicas share them). */
  abstract claimPendingCards(leaseSeconds: number, limit: number): Promise<NewPaymentItem[]>;
}

@Injectable()
export class SqlPaymentsRepository extends PaymentsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async insert(m: Tx, p: NewPaymentItem, now: Date): Promise<PaymentItem> {
    const rows = await sql.rows<PaymentRow>(
      m,
      `WITH n AS (UPDATE links SET attempt_count = attempt_count + 1, updated_at = $16 WHERE id = $2 RETURNING attempt_count)
       INSERT INTO links_payments (id, link_id, tenant_id, seq, method, status, amount_cents, fee_cents, net_cents, installments, payer, instrument, splits,
         acquirer_id, reason, paid_at, created_at, updated_at)
       SELECT $1, $2, $3, n.attempt_count, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16 FROM n
       RETURNING ${PAYMENT_COLUMNS}`,
      [
        p.id,
        p.linkId,
        p.tenantId,
        p.method,
        p.status,
        p.amountCents,
        p.feeCents,
        p.netCents,
        p.installments,
        JSON.stringify(p.payer),
        JSON.stringify(p.instrument),
        JSON.stringify(p.splits),
        p.acquirerId,
        p.reason,
        p.paidAt,
        now,
      ],
    );
    return toPayment(rows[0]);
  }

  async find(id: string): Promise<PaymentItem | null> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
    const rows = await sql.rows<PaymentRow>(this.ds, `SELECT ${PAYMENT_COLUMNS} FROM links_payments WHERE id = $1`, [id]);
    return rows[0] ? toPayment(rows[0]) : null;
  }

  async lock(m: Tx, id: string): Promise<PaymentItem | null> {
    const rows = await sql.rows<PaymentRow>(m, `SELECT ${PAYMENT_COLUMNS} FROM links_payments WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ? toPayment(rows[0]) : null;
  }

  async transition(m: Tx, id: string, from: string[], to: string, now: Date, paidAt: Date | null): Promise<PaymentItem | null> {
    const res = await sql.rows<PaymentRow>(
      m,
      `UPDATE links_payments SET status = $2, updated_at = $3, paid_at = COALESCE(paid_at, $5) WHERE id = $1 AND status = ANY($4) RETURNING ${PAYMENT_COLUMNS}`,
      [id, to, now, from, paidAt],
    );
    return res[0] ? toPayment(res[0]) : null;
  }

  async countPaid(m: Tx, linkId: string, amountCents: number, now: Date) {
    const res = await sql.rows(
      m,
      `UPDATE links SET paid_count = paid_count + 1, total_paid_cents = total_paid_cents + $2, updated_at = $3 WHERE id = $1
       RETURNING paid_count, max_uses, status`,
      [linkId, amountCents, now],
    );
    const r = res[0];
    return { paidCount: r.paid_count, maxUses: r.max_uses, status: r.status };
  }

  async activeHolds(m: Tx, linkId: string, now: Date): Promise<number> {
    return (await sql.rows(m, `SELECT count(*)::int AS n FROM links_use_holds WHERE link_id = $1 AND expires_at > $2`, [linkId, now]))[0].n;
  }

  async hold(m: Tx, paymentId: string, linkId: string, until: Date): Promise<void> {
    await sql.rows(
      m,
      `INSERT INTO links_use_holds (payment_id, link_id, expires_at) VALUES ($1, $2, $3) ON CONFLICT (payment_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [paymentId, linkId, until],
    );
  }

  async release(m: Tx, paymentId: string): Promise<void> {
    await sql.rows(m, `DELETE FROM links_use_holds WHERE payment_id = $1`, [paymentId]);
  }

  async savePendingCard(p: NewPaymentItem, checkAfterSeconds: number): Promise<void> {
    await sql.rows(
      this.ds,
      `INSERT INTO links_card_attempts (payment_id, link_id, item, check_after) VALUES ($1, $2, $3, now() + make_interval(secs => $4)) ON CONFLICT DO NOTHING`,
      [p.id, p.linkId, JSON.stringify(p), checkAfterSeconds],
    );
  }

  async dropPendingCard(m: Tx | null, paymentId: string): Promise<void> {
    await sql.rows(m ?? this.ds, `DELETE FROM links_card_attempts WHERE payment_id = $1`, [paymentId]);
  }

  async claimPendingCards(leaseSeconds: number, limit: number): Promise<NewPaymentItem[]> {
    const res = await sql.rows<{ item: NewPaymentItem }>(
      this.ds,
      `UPDATE links_card_attempts SET check_after = now() + make_interval(secs => $1)
       WHERE payment_id IN (SELECT payment_id FROM links_card_attempts WHERE check_after <= now() ORDER BY check_after LIMIT ${limit} FOR UPDATE SKIP LOCKED)
       RETURNING item`,
      [leaseSeconds],
    );
    return res.map((r) => r.item);
  }

  async dropExpiredHolds(now: Date): Promise<number> {
    return (await sql.exec(this.ds, `DELETE FROM links_use_holds WHERE expires_at <= $1`, [now])).count;
  }
}
