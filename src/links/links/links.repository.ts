import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LinkStatus } from '../domain/link.state-machine';
import { Link, LINK_COLUMNS, LinkSettings, toLink, LinkRow } from './link.types';
import { Allocation } from '../domain/splits';
import { Payer } from '../payments/payment.types';
import { Tx } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';

/** A payment as the detail query's json_build_object gives it (timestamps as ISO text). */
export interface PaymentJson {
  id: string;
  method: string;
  status: string;
  amount_cents: number;
  fee_cents: number;
  net_cents: number;
  installments: number;
  payer: Payer;
  instrument: Record<string, unknown> | null;
  splits: Allocation[] | null;
  reason: string | null;
  paid_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** A link event as the detail query's json_agg gives it. */
export interface LinkEventJson {
  id: number;
  type: string;
  payment_id: string | null;
  data: Record<string, unknown> | null;
  occurred_at: string;
}

export interface LinkDetailRow {
  link: Link;
  payments: PaymentJson[] | null;
  events: LinkEventJson[];
}

/** Port: payment links and their history. Writes take the caller's transaction manager. */
export abstract class LinksRepository {
  abstract insert(m: Tx, l: Omit<Link, 'viewCount' | 'attemptCount' | 'paidCount' | 'totalPaidCents'>): Promise<Link>;
  abstract find(tenantId: string, id: string): Promise<Link | null>;
  abstract findBySlug(slug: string): Promise<Link | null>;
  /** The link's id and per-minute checkout brake (null: none), by slug; null for an unknown slug. */
  abstract checkoutBrake(slug: string): Promise<{ linkId: string; perMinute: number | null } | null>;
  /** Locks the row for the rest of the transaction (serializes attempts and confirmations per link). */
  abstract lock(m: Tx, id: string): Promise<Link | null>;
  abstract list(tenantId: string, status: string | undefined, limit: number, offset: number): Promise<[Link[], number]>;
  abstract updateSettings(m: Tx, id: string, s: LinkSettings, now: Date): Promise<Link>;
  /** Conditional transition: true when this writer moved it. */
  abstract transition(m: Tx, id: string, from: LinkStatus[], to: LinkStatus, now: Date): Promise<boolean>;
  abstract countView(slug: string): Promise<Link | null>;
  abstract addEvent(m: Tx, linkId: string, type: string, data: Record<string, unknown>, at: Date, paymentId?: string | null): Promise<void>;
  abstract detail(tenantId: string, id: string): Promise<LinkDetailRow | null>;
  /** ACTIVE links whose expiresAt has passed, locked (SKIP LOCKED) for the caller's transaction. */
  abstract claimExpired(m: Tx, now: Date, limit: number): Promise<string[]>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

/** Newest events shown in the detail. */
export const DETAIL_EVENTS = 200;

@Injectable()
export class SqlLinksRepository extends LinksRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async insert(m: Tx, l: Omit<Link, 'viewCount' | 'attemptCount' | 'paidCount' | 'totalPaidCents'>): Promise<Link> {
    const rows = await sql.rows<LinkRow>(
      m,
      `INSERT INTO links (id, tenant_id, slug, owner_merchant_id, name, description, amount_cents, min_amount_cents, max_amount_cents,
         payment_methods, max_installments, pass_fee, splits, max_uses, expires_at, notify_email, actor_email, status, created_at, updated_at,
         checkout_attempts_per_minute)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21) RETURNING ${LINK_COLUMNS}`,
      [
        l.id,
        l.tenantId,
        l.slug,
        l.ownerMerchantId,
        l.name,
        l.description,
        l.amountCents,
        l.minAmountCents,
        l.maxAmountCents,
        l.paymentMethods,
        l.maxInstallments,
        l.passFee,
        JSON.stringify(l.splits),
        l.maxUses,
        l.expiresAt,
        l.notifyEmail,
        l.actorEmail,
        l.status,
        l.createdAt,
        l.updatedAt,
        l.checkoutAttemptsPerMinute,
      ],
    );
    return toLink(rows[0]);
  }

  async find(tenantId: string, id: string): Promise<Link | null> {
    if (!isUuid(id)) return null;
    const rows = await sql.rows<LinkRow>(this.ds, `SELECT ${LINK_COLUMNS} FROM links WHERE id = $1 AND tenant_id = $2`, [id, tenantId]);
    return rows[0] ? toLink(rows[0]) : null;
  }

  async findBySlug(slug: string): Promise<Link | null> {
    const rows = await sql.rows<LinkRow>(this.ds, `SELECT ${LINK_COLUMNS} FROM links WHERE slug = $1`, [slug]);
    return rows[0] ? toLink(rows[0]) : null;
  }

  async checkoutBrake(slug: string): Promise<{ linkId: string; perMinute: number | null } | null> {
    const rows = await sql.rows(this.ds, `SELECT id, checkout_attempts_per_minute FROM links WHERE slug = $1`, [slug]);
    return rows[0] ? { linkId: rows[0].id, perMinute: rows[0].checkout_attempts_per_minute } : null;
  }

  async lock(m: Tx, id: string): Promise<Link | null> {
    const rows = await sql.rows<LinkRow>(m, `SELECT ${LINK_COLUMNS} FROM links WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ? toLink(rows[0]) : null;
  }

  async list(tenantId: string, status: string | undefined, limit: number, offset: number): Promise<[Link[], number]> {
    const params: unknown[] = [tenantId, limit, offset];
    if (status) params.push(status);
    const rows = await sql.rows<LinkRow & { total: string }>(
      this.ds,
      `SELECT ${LINK_COLUMNS}, count(*) OVER () AS total FROM links WHERE tenant_id = $1 ${status ? 'AND status = $4' : ''}
       ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      params,
    );
    if (!rows.length && offset > 0) {
      const c = await sql.rows<{ n: number }>(
        this.ds,
        `SELECT count(*)::int AS n FROM links WHERE tenant_id = $1 ${status ? 'AND status = $2' : ''}`,
        status ? [tenantId, status] : [tenantId],
      );
      return [[], c[0].n];
    }
    return [rows.map(toLink), rows.length ? Number(rows[0].total) : 0];
  }

  async updateSettings(m: Tx, id: string, s: LinkSettings, now: Date): Promise<Link> {
    const res = await sql.rows<LinkRow>(
      m,
      `UPDATE links SET name = $2, description = $3, amount_cents = $4, min_amount_cents = $5, max_amount_cents = $6, payment_methods = $7,
         max_installments = $8, pass_fee = $9, splits = $10, max_uses = $11, expires_at = $12, notify_email = $13, actor_email = $14, updated_at = $15,
         checkout_attempts_per_minute = $16
       WHERE id = $1 RETURNING ${LINK_COLUMNS}`,
      [
        id,
        s.name,
        s.description,
        s.amountCents,
        s.minAmountCents,
        s.maxAmountCents,
        s.paymentMethods,
        s.maxInstallments,
        s.passFee,
        JSON.stringify(s.splits),
        s.maxUses,
        s.expiresAt,
        s.notifyEmail,
        s.actorEmail,
        now,
        s.checkoutAttemptsPerMinute,
      ],
    );
    return toLink(res[0]);
  }

  async transition(m: Tx, id: string, from: LinkStatus[], to: LinkStatus, now: Date): Promise<boolean> {
    const res = await sql.exec(m, `UPDATE links SET status = $2, updated_at = $3 WHERE id = $1 AND status = ANY($4)`, [id, to, now, from]);
    return res.count === 1;
  }

  async countView(slug: string): Promise<Link | null> {
    const res = await sql.rows<LinkRow>(this.ds, `UPDATE links SET view_count = view_count + 1 WHERE slug = $1 RETURNING ${LINK_COLUMNS}`, [
      slug,
    ]);
    return res[0] ? toLink(res[0]) : null;
  }

  async addEvent(
    m: Tx,
    linkId: string,
    type: string,
    data: Record<string, unknown>,
    at: Date,
    paymentId: string | null = null,
  ): Promise<void> {
    await sql.rows(m, `INSERT INTO links_events (link_id, type, payment_id, data, occurred_at) VALUES ($1,$2,$3,$4,$5)`, [
      linkId,
      type,
      paymentId,
      JSON.stringify(data),
      at,
    ]);
  }

  /** One round trip: the link, its payments in attempt order and its newest events. */
  async detail(tenantId: string, id: string): Promise<LinkDetailRow | null> {
    if (!isUuid(id)) return null;
    const rows = await sql.rows<LinkRow & { payments: PaymentJson[] | null; events: LinkEventJson[] | null }>(
      this.ds,
      `SELECT ${LINK_COLUMNS.split(',')
        .map((c) => `l.${c.trim()}`)
        .join(', ')},
         (SELECT json_agg(json_build_object('id', p.id, 'method', p.method, 'status', p.status, 'amount_cents', p.amount_cents, 'fee_cents', p.fee_cents,
                   'net_cents', p.net_cents, 'installments', p.installments, 'payer', p.payer, 'instrument', p.instrument, 'splits', p.splits,
                   'reason', p.reason, 'paid_at', p.paid_at, 'created_at', p.created_at, 'updated_at', p.updated_at) ORDER BY p.seq)
            FROM links_payments p WHERE p.link_id = l.id) AS payments,
         (SELECT json_agg(e ORDER BY e.id) FROM (SELECT id, type, payment_id, data, occurred_at FROM links_events
            WHERE link_id = l.id ORDER BY id DESC LIMIT ${DETAIL_EVENTS}) e) AS events
       FROM links l WHERE l.id = $1 AND l.tenant_id = $2`,
      [id, tenantId],
    );
    if (!rows[0]) return null;
    return { link: toLink(rows[0]), payments: rows[0].payments, events: rows[0].events ?? [] };
  }

  async claimExpired(m: Tx, now: Date, limit: number): Promise<string[]> {
    const rows = await sql.rows<{ id: string }>(
      m,
      `SELECT id FROM links WHERE status = 'ACTIVE' AND expires_at IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
      [now],
    );
    return rows.map((r) => r.id);
  }
}
