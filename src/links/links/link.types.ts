import { LinkStatus } from '../domain/link.state-machine';
import { PaymentMethod } from '../domain/fees';
import { SplitShare } from '../domain/splits';
import type { Row } from '../../../kernel/platform/database/sql';

/** A payment link as stored (cents, Dates). */
export interface Link {
  id: string;
  tenantId: string;
  slug: string;
  ownerMerchantId: string;
  name: string;
  description: string | null;
  amountCents: number | null;
  minAmountCents: number | null;
  maxAmountCents: number | null;
  paymentMethods: PaymentMethod[];
  maxInstallments: number;
  passFee: boolean;
  splits: SplitShare[];
  maxUses: number | null;
  /** Checkout attempts per minute from all payers together; null: no per-link brake. */
  checkoutAttemptsPerMinute: number | null;
  expiresAt: Date | null;
  notifyEmail: boolean;
  actorEmail: string | null;
  status: LinkStatus;
  viewCount: number;
  attemptCount: number;
  paidCount: number;
  totalPaidCents: number;
  createdAt: Date;
  updatedAt: Date;
}

/** The settings a caller controls (create, PATCH). */
export type LinkSettings = Pick<
  Link,
  | 'name'
  | 'description'
  | 'amountCents'
  | 'minAmountCents'
  | 'maxAmountCents'
  | 'paymentMethods'
  | 'maxInstallments'
  | 'passFee'
  | 'splits'
  | 'maxUses'
  | 'checkoutAttemptsPerMinute'
  | 'expiresAt'
  | 'notifyEmail'
  | 'actorEmail'
>;

export const LINK_COLUMNS = `id, tenant_id, slug, owner_merchant_id, name, description, amount_cents, min_amount_cents, max_amount_cents,
  payment_methods, max_installments, pass_fee, splits, max_uses, checkout_attempts_per_minute, expires_at, notify_email, actor_email, status,
  view_count, attempt_count, paid_count, total_paid_cents, created_at, updated_at`;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export type LinkRow = Row<'links'>;

export function toLink(r: LinkRow): Link {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    slug: r.slug,
    ownerMerchantId: r.owner_merchant_id,
    name: r.name,
    description: r.description,
    amountCents: num(r.amount_cents),
    minAmountCents: num(r.min_amount_cents),
    maxAmountCents: num(r.max_amount_cents),
    paymentMethods: r.payment_methods as Link['paymentMethods'],
    maxInstallments: r.max_installments,
    passFee: r.pass_fee,
    splits: (r.splits as Link['splits'] | null) ?? [],
    maxUses: r.max_uses,
    checkoutAttemptsPerMinute: r.checkout_attempts_per_minute,
    expiresAt: r.expires_at ? new Date(r.expires_at) : null,
    notifyEmail: r.notify_email,
    actorEmail: r.actor_email,
    status: r.status as Link['status'],
    viewCount: Number(r.view_count),
    attemptCount: r.attempt_count,
    paidCount: r.paid_count,
    totalPaidCents: Number(r.total_paid_cents),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}
