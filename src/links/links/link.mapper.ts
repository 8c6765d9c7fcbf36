import { LinkDto } from '../dto/link.dto';
import { LinkEventDto, PaymentItemDto } from '../dto/payment.dto';
import { isPaid } from '../domain/payment-item.state-machine';
import { PaymentItem } from '../payments/payment.types';
import { Link } from './link.types';
import type { LinkEventJson, PaymentJson } from './links.repository';

const brl = (cents: number | null): number | null => (cents === null ? null : cents / 100);
const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function checkoutUrl(publicUrl: string, slug: string): string {
  return `${publicUrl}/checkout/${slug}`;
}

export function linkToDto(l: Link, publicUrl: string): LinkDto {
  return {
    linkId: l.id,
    slug: l.slug,
    checkoutUrl: checkoutUrl(publicUrl, l.slug),
    status: l.status,
    name: l.name,
    description: l.description,
    amount: brl(l.amountCents),
    minAmount: brl(l.minAmountCents),
    maxAmount: brl(l.maxAmountCents),
    paymentMethods: l.paymentMethods,
    maxInstallments: l.maxInstallments,
    passFee: l.passFee,
    splits: l.splits.map((s) => ({
      merchantId: s.merchantId,
      ...(s.percentage !== undefined ? { percentage: s.percentage } : {}),
      ...(s.amountCents !== undefined ? { amount: s.amountCents / 100 } : {}),
    })),
    ownerMerchantId: l.ownerMerchantId,
    maxUses: l.maxUses,
    checkoutAttemptsPerMinute: l.checkoutAttemptsPerMinute,
    expiresAt: iso(l.expiresAt),
    notifyEmail: l.notifyEmail,
    actor: l.actorEmail ? { email: l.actorEmail } : null,
    viewCount: l.viewCount,
    attemptCount: l.attemptCount,
    paidCount: l.paidCount,
    totalPaid: l.totalPaidCents / 100,
    createdAt: l.createdAt.toISOString(),
    updatedAt: l.updatedAt.toISOString(),
  };
}

/** A payment row (as selected by the detail query, timestamps already ISO text) to the API item. */
export function paymentToDto(p: PaymentJson): PaymentItemDto {
  return {
    id: p.id,
    transactionMethod: p.method,
    status: p.status,
    paid: isPaid(p.status),
    amount: Number(p.amount_cents) / 100,
    fee: Number(p.fee_cents) / 100,
    netAmount: Number(p.net_cents) / 100,
    installments: p.installments,
    method: methodDetail(p.method, p.instrument ?? {}),
    payer: { name: p.payer.name, email: p.payer.email, taxId: p.payer.taxId ?? null },
    splits: (p.splits ?? []).map((a) => ({ merchantId: a.merchantId, amount: a.amountCents / 100 })),
    reason: p.reason ?? null,
    paidAt: iso(p.paid_at),
    createdAt: iso(p.created_at)!,
    updatedAt: iso(p.updated_at)!,
  };
}

/** A stored item (camelCase) to the API item. */
export function itemToDto(p: PaymentItem): PaymentItemDto {
  return paymentToDto({
    ...p,
    amount_cents: p.amountCents,
    fee_cents: p.feeCents,
    net_cents: p.netCents,
    paid_at: p.paidAt,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  });
}

const DETAIL_KEYS = ['brand', 'last4', 'txid', 'expiresAt', 'boletoId', 'digitableLine', 'dueDate'] as const;

function methodDetail(type: string, instrument: Record<string, unknown>): PaymentItemDto['method'] {
  const out: Record<string, unknown> = { type };
  for (const k of DETAIL_KEYS) if (instrument[k] !== undefined) out[k] = instrument[k];
  return out as unknown as PaymentItemDto['method'];
}

export function eventToDto(e: LinkEventJson): LinkEventDto {
  return { type: e.type, paymentId: e.payment_id ?? null, data: e.data ?? {}, occurredAt: iso(e.occurred_at)! };
}
