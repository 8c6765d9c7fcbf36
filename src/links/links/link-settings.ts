import { toCents } from '../../../kernel/common/formats/money';
import { ErrorDetail } from '../../../kernel/platform/errors/app-error';
import { FeeTable, PaymentMethod } from '../domain/fees';
import { allocate, splitsFromApi, validateSplits } from '../domain/splits';
import { CreateLinkDto } from '../dto/link.dto';
import { quoteAll } from '../fees/fee-quotes';
import { LinkErrorCode, LinkErrors, refusingFees } from '../links.errors';
import { LinkSettings } from './link.types';

function invalid(field: string, message: string, code: LinkErrorCode = 'invalid_link'): never {
  throw LinkErrors.error(code, message, { details: [{ field, message, code }] as ErrorDetail[] });
}

function cents(v: number | null | undefined, field: string): number | null {
  if (v === null || v === undefined) return null;
  try {
    return toCents(v);
  } catch (e: any) {
    return invalid(field, `${field}: ${e.message}`, 'invalid_amount');
  }
}

/**
 * The caller's fields (create, or current settings merged with a PATCH) checked and turned into
 * stored settings. Each broken rule is a 400 whose code names it.
 */
export function buildSettings(input: CreateLinkDto, ownerId: string, now: Date): LinkSettings {
  const amountCents = cents(input.amount, 'amount');
  const minAmountCents = cents(input.minAmount, 'minAmount');
  const maxAmountCents = cents(input.maxAmount, 'maxAmount');
  if (amountCents !== null && (minAmountCents !== null || maxAmountCents !== null)) {
    invalid(
      minAmountCents !== null ? 'minAmount' : 'maxAmount',
      'minAmount and maxAmount apply only to an open amount (amount absent or null)',
    );
  }
  if (minAmountCents !== null && maxAmountCents !== null && minAmountCents > maxAmountCents)
    invalid('minAmount', 'minAmount must not exceed maxAmount');
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now.getTime()) invalid('expiresAt', 'expiresAt must be in the future');
  const actorEmail = input.actor?.email ?? null;
  const notifyEmail = input.notifyEmail ?? false;
  if (notifyEmail && !actorEmail) invalid('actor.email', 'notifyEmail needs actor.email (who receives the notices)');

  const splits = splitsFromApi(input.splits ?? []); // a SplitError answers on `splits` by itself
  validateSplits(splits, ownerId, amountCents ?? undefined);
  return {
    name: input.name,
    description: input.description ?? null,
    amountCents,
    minAmountCents,
    maxAmountCents,
    paymentMethods: [...input.paymentMethods] as PaymentMethod[],
    maxInstallments: input.maxInstallments ?? 1,
    passFee: input.passFee ?? false,
    splits,
    maxUses: input.maxUses ?? null,
    checkoutAttemptsPerMinute: input.checkoutAttemptsPerMinute ?? null,
    expiresAt,
    notifyEmail,
    actorEmail,
  };
}

/**
 * For a fixed price: every option can be priced (fee below the amount, gross-up in range) and,
 * with splits and the owner paying the fee, the owner's share covers the fee.
 */
export function assertPriceable(s: LinkSettings, table: FeeTable, ownerId: string, priceCents: number): void {
  const options = refusingFees('amount', () => quoteAll(table, priceCents, s.paymentMethods, s.maxInstallments, s.passFee));
  if (s.passFee || !s.splits.length) return;
  const ownerShare = allocate(priceCents, s.splits, ownerId).find((a) => a.merchantId === ownerId)!.amountCents;
  const worst = options.reduce((max, o) => Math.max(max, o.feeCents), 0);
  if (ownerShare < worst) {
    invalid(
      'splits',
      `The owner's share (${ownerShare / 100}) does not cover the fee (up to ${worst / 100}); raise it or use passFee`,
      'split_total_mismatch',
    );
  }
}

/** Allocation of one payment: shares of the price; the owner bears the fee unless it was passed on. */
export function allocatePayment(s: Pick<LinkSettings, 'splits' | 'passFee'>, ownerId: string, priceCents: number, feeCents: number) {
  const shares = allocate(priceCents, s.splits, ownerId);
  if (!s.passFee) shares.find((a) => a.merchantId === ownerId)!.amountCents -= feeCents;
  return shares;
}
