import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CardCaptureMode } from '../../provider/acquirer.port';
import { rows, Sql } from '../sql';
import { CardPaymentStatus } from '../../provider/acquirer/card-charge.state-machine';
import type { Row } from '../../../kernel/platform/database/sql';

export interface NewCardPayment {
  id: string;
  tenantId: string;
  storedCardId: string;
  cardTokenId: string | null;
  documentId: string | null;
  amountCents: number;
  installments: number;
  captureMode: CardCaptureMode;
  status: CardPaymentStatus;
  securityCodePresented: boolean;
  threeDsAuthenticationId: string | null;
  threeDsTransStatus: 'Y' | 'N' | 'U' | null;
  eci: string | null;
  reason: string | null;
  description: string | null;
  requestId: string;
  now: Date;
}

export interface CardPaymentRecord {
  id: string;
  tenantId: string;
  storedCardId: string;
  documentId: string | null;
  amountCents: number;
  capturedAmountCents: number | null;
  currency: 'BRL';
  installments: number;
  captureMode: CardCaptureMode;
  status: CardPaymentStatus;
  securityCodePresented: boolean;
  threeDsTransStatus: 'Y' | 'N' | 'U' | null;
  eci: string | null;
  acquirerTransactionId: string | null;
  authorizationCode: string | null;
  reason: string | null;
  authorizedOn: string | null;
  description: string | null;
  brand: string;
  first4: string;
  last4: string;
  createdAt: Date;
  updatedAt: Date;
  capturedAt: Date | null;
  voidedAt: Date | null;
}

export interface PaymentChange {
  to: CardPaymentStatus;
  allowedFrom: CardPaymentStatus[];
  now: Date;
  acquirerTransactionId?: string | null;
  authorizationCode?: string | null;
  reason?: string | null;
  authorizedOn?: string | null;
  capturedAmountCents?: number;
  captured?: boolean;
  voided?: boolean;
}

/** Port: card payments. Status changes are conditional UPDATEs (see the state machine). */
export abstract class CardPaymentsRepository {
  abstract insert(db: Sql, p: NewCardPayment): Promise<void>;
  abstract find(db: Sql, tenantId: string, id: string, lock?: boolean): Promise<CardPaymentRecord | null>;
  /** Any tenant's payment (an acquirer's notification names only the payment). */
  abstract findById(id: string): Promise<CardPaymentRecord | null>;
  /** Applies the change when the status is still one of `allowedFrom`; null when it is not. */
  abstract change(db: Sql, id: string, c: PaymentChange): Promise<CardPaymentRecord | null>;
  /** PROCESSING payments older than `before`, locked for the recovery run (SKIP LOCKED). */
  abstract lockStuck(db: Sql, before: Date, limit: number): Promise<CardPaymentRecord[]>;
  abstract list(tenantId: string, limit: number, offset: number): Promise<[CardPaymentRecord[], number]>;
}

const SELECT = `SELECT p.*, s.brand, s.first4, s.last4 FROM card_payments p JOIN stored_cards s ON s.id = p.stored_card_id`;

type PaymentRow = Row<'card_payments'> & Pick<Row<'stored_cards'>, 'brand' | 'first4' | 'last4'>;

function toRecord(r: PaymentRow): CardPaymentRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    storedCardId: r.stored_card_id,
    documentId: r.document_id,
    amountCents: Number(r.amount_cents),
    capturedAmountCents: r.captured_amount_cents === null ? null : Number(r.captured_amount_cents),
    currency: 'BRL',
    installments: Number(r.installments),
    captureMode: r.capture_mode as CardPaymentRecord['captureMode'],
    status: r.status as CardPaymentRecord['status'],
    securityCodePresented: r.security_code_presented,
    threeDsTransStatus: r.three_ds_trans_status as CardPaymentRecord['threeDsTransStatus'],
    eci: r.eci,
    acquirerTransactionId: r.acquirer_transaction_id,
    authorizationCode: r.authorization_code,
    reason: r.reason,
    authorizedOn: r.authorized_on ? dateOnly(r.authorized_on) : null,
    description: r.description,
    brand: r.brand,
    first4: r.first4,
    last4: r.last4,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    capturedAt: r.captured_at,
    voidedAt: r.voided_at,
  };
}

/** pg gives a `date` column as a local-midnight Date; take its calendar fields back. */
function dateOnly(v: Date | string): string {
  if (typeof v === 'string') return v.slice(0, 10);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${v.getFullYear()}-${p(v.getMonth() + 1)}-${p(v.getDate())}`;
}

@Injectable()
export class SqlCardPaymentsRepository extends CardPaymentsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async insert(db: Sql, p: NewCardPayment): Promise<void> {
    await rows(
      db,
      `INSERT INTO card_payments (id, tenant_id, stored_card_id, card_token_id, document_id, amount_cents, installments, capture_mode,
                                  status, security_code_presented, three_ds_authentication_id, three_ds_trans_status, eci, reason,
                                  description, request_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)`,
      [
        p.id,
        p.tenantId,
        p.storedCardId,
        p.cardTokenId,
        p.documentId,
        p.amountCents,
        p.installments,
        p.captureMode,
        p.status,
        p.securityCodePresented,
        p.threeDsAuthenticationId,
        p.threeDsTransStatus,
        p.eci,
        p.reason,
        p.description,
        p.requestId,
        p.now,
      ],
    );
  }

  async findById(id: string): Promise<CardPaymentRecord | null> {
    if (!/^pay_[A-Za-z0-9_-]{16,64}$/.test(id)) return null;
    const r = await rows<PaymentRow>(this.ds, `${SELECT} WHERE p.id = $1`, [id]);
    return r[0] ? toRecord(r[0]) : null;
  }

  async find(db: Sql, tenantId: string, id: string, lock = false): Promise<CardPaymentRecord | null> {
    const r = await rows<PaymentRow>(db, `${SELECT} WHERE p.id = $1 AND p.tenant_id = $2${lock ? ' FOR UPDATE OF p' : ''}`, [id, tenantId]);
    return r[0] ? toRecord(r[0]) : null;
  }

  async change(db: Sql, id: string, c: PaymentChange): Promise<CardPaymentRecord | null> {
    const r = await rows<PaymentRow>(
      db,
      `WITH p AS (
         UPDATE card_payments SET status = $2, updated_at = $4,
                acquirer_transaction_id = COALESCE($5, acquirer_transaction_id),
                authorization_code = COALESCE($6, authorization_code),
                reason = COALESCE($7, reason),
                authorized_on = COALESCE($8::date, authorized_on),
                captured_amount_cents = COALESCE($9, captured_amount_cents),
                captured_at = CASE WHEN $10 THEN $4 ELSE captured_at END,
                voided_at = CASE WHEN $11 THEN $4 ELSE voided_at END
          WHERE id = $1 AND status = ANY($3)
          RETURNING *)
       SELECT p.*, s.brand, s.first4, s.last4 FROM p JOIN stored_cards s ON s.id = p.stored_card_id`,
      [
        id,
        c.to,
        c.allowedFrom,
        c.now,
        c.acquirerTransactionId ?? null,
        c.authorizationCode ?? null,
        c.reason ?? null,
        c.authorizedOn ?? null,
        c.capturedAmountCents ?? null,
        c.captured ?? false,
        c.voided ?? false,
      ],
    );
    return r[0] ? toRecord(r[0]) : null;
  }

  async lockStuck(db: Sql, before: Date, limit: number): Promise<CardPaymentRecord[]> {
    const r = await rows<PaymentRow>(
      db,
      `${SELECT} WHERE p.status = 'PROCESSING' AND p.created_at < $1 ORDER BY p.created_at LIMIT $2 FOR UPDATE OF p SKIP LOCKED`,
      [before, limit],
    );
    return r.map(toRecord);
  }

  async list(tenantId: string, limit: number, offset: number): Promise<[CardPaymentRecord[], number]> {
    const [items, total] = await Promise.all([
      rows<PaymentRow>(this.ds, `${SELECT} WHERE p.tenant_id = $1 ORDER BY p.created_at DESC, p.id LIMIT $2 OFFSET $3`, [
        tenantId,
        limit,
        offset,
      ]),
      rows<{ n: number }>(this.ds, `SELECT count(*)::int AS n FROM card_payments WHERE tenant_id = $1`, [tenantId]),
    ]);
    return [items.map(toRecord), total[0].n];
  }
}
