import { TransactionMethod } from '../domain/payment-item.state-machine';
import { Allocation } from '../domain/splits';
import type { Row } from '../../../kernel/platform/database/sql';

export interface Payer {
  name: string;
  email: string;
  taxId?: string | null;
}

/** A payment item (one attempt on a link) as stored. */
export interface PaymentItem {
  id: string;
  linkId: string;
  tenantId: string;
  seq: number;
  method: TransactionMethod;
  status: string;
  amountCents: number;
  feeCents: number;
  netCents: number;
  installments: number;
  payer: Payer;
  /** What the payer sees of the instrument: card brand/last4, Pix txid/brCode/expiresAt, boleto line… */
  instrument: Record<string, any>;
  splits: Allocation[];
  acquirerId: string | null;
  reason: string | null;
  paidAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const PAYMENT_COLUMNS = `id, link_id, tenant_id, seq, method, status, amount_cents, fee_cents, net_cents, installments, payer, instrument, splits,
  acquirer_id, reason, paid_at, created_at, updated_at`;

export type PaymentRow = Row<'links_payments'>;

export function toPayment(r: PaymentRow): PaymentItem {
  return {
    id: r.id,
    linkId: r.link_id,
    tenantId: r.tenant_id,
    seq: r.seq,
    method: r.method as PaymentItem['method'],
    status: r.status,
    amountCents: Number(r.amount_cents),
    feeCents: Number(r.fee_cents),
    netCents: Number(r.net_cents),
    installments: r.installments,
    payer: r.payer as PaymentItem['payer'],
    instrument: r.instrument ?? {},
    splits: (r.splits as PaymentItem['splits'] | null) ?? [],
    acquirerId: r.acquirer_id,
    reason: r.reason,
    paidAt: r.paid_at ? new Date(r.paid_at) : null,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}
