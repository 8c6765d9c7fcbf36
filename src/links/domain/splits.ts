import { CodedError } from '../../../kernel/common/formats/coded-error';
import { MoneyError, toCents } from '../../../kernel/common/formats/money';

/**
 * Split of a payment among merchants.
 *
 * Rules (checked in this order, each failure a SplitError whose code names the rule):
 *  1. No split configured (absent or empty list): the owner receives everything.
 *  2. `split_share_invalid`: every share names a merchant and has exactly one of
 *     `percentage` (0 < p <= 100, at most 2 decimals) or `amountCents` (integer > 0).
 *  3. `split_duplicate_merchant`: a merchant appears once.
 *  4. `split_owner_missing`: the merchant that owns the link is in the list.
 *  5. `split_total_mismatch`, the shares cover the whole amount exactly:
 *     fixed amounts are served first, and percentages divide what is left
 *     (total - sum of fixed amounts). So either
 *       - there are percentage shares, they add up to exactly 100, and the fixed amounts
 *         do not exceed the total; or
 *       - all shares are fixed and they add up to exactly the total.
 *     Rules about the total can only be checked once the amount is known (open-amount
 *     links), which `validateSplits` without a total skips.
 *  6. Each percentage share receives floor(remainder * p / 100) cents; the cents lost to
 *     that rounding go to the owner, so the allocation always sums to the total.
 */

export interface SplitShare {
  merchantId: string;
  /** Percent of what remains after fixed amounts, 0 < p <= 100, at most 2 decimals. */
  percentage?: number;
  /** Fixed amount in cents, integer > 0. */
  amountCents?: number;
}

/** Split as the API carries it: `amount` in BRL units. */
export interface ApiSplitShare {
  merchantId: string;
  percentage?: number | null;
  amount?: number | null;
}

export interface Allocation {
  merchantId: string;
  amountCents: number;
}

export type SplitErrorCode = 'split_owner_missing' | 'split_duplicate_merchant' | 'split_share_invalid' | 'split_total_mismatch';

/** A refused split: always about a link's `splits` field, which the error envelope names. */
export class SplitError extends CodedError<SplitErrorCode> {
  constructor(code: SplitErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, { field: 'splits', ...details });
  }
}

const FULL_HUNDREDTHS = 10_000; // 100.00 %

/** Converts API shares (amount in BRL) to domain shares (cents). @throws SplitError split_share_invalid */
export function splitsFromApi(shares: readonly ApiSplitShare[] | null | undefined): SplitShare[] {
  if (shares === null || shares === undefined) return [];
  if (!Array.isArray(shares)) throw new SplitError('split_share_invalid', 'splits must be an array');
  return shares.map((s, index) => {
    const out: SplitShare = { merchantId: s?.merchantId };
    if (s?.percentage !== undefined && s.percentage !== null) out.percentage = s.percentage;
    if (s?.amount !== undefined && s.amount !== null) {
      try {
        out.amountCents = toCents(s.amount);
      } catch (e) {
        if (e instanceof MoneyError) {
          throw new SplitError('split_share_invalid', `Share ${index}: ${e.message}`, { index, merchantId: s.merchantId });
        }
        throw e;
      }
    }
    return out;
  });
}

/** Percentage as integer hundredths of a percent (12.5 -> 1250). @throws SplitError split_share_invalid */
export function percentageHundredths(percentage: number, index = 0): number {
  let hundredths: number;
  try {
    hundredths = toCents(percentage); // same exact 2-decimal reading as money
  } catch (e) {
    if (!(e instanceof MoneyError)) throw e;
    throw new SplitError('split_share_invalid', `Share ${index}: percentage must have at most 2 decimals`, { index, percentage });
  }
  if (hundredths <= 0 || hundredths > FULL_HUNDREDTHS) {
    throw new SplitError('split_share_invalid', `Share ${index}: percentage must be above 0 and at most 100`, { index, percentage });
  }
  return hundredths;
}

interface NormalizedShare {
  merchantId: string;
  kind: 'percentage' | 'fixed';
  /** hundredths of a percent, or cents */
  value: number;
}

/**
 * Checks rules 2-5; without `totalCents` only the part of rule 5 that does not depend on the
 * amount (percentages add up to 100). @throws SplitError
 */
export function validateSplits(splits: readonly SplitShare[], ownerId: string, totalCents?: number): void {
  normalize(splits, ownerId, totalCents);
}

/**
 * Cents per merchant, in the order of `splits`, summing exactly to `totalCents`.
 * Without splits the owner receives the total. @throws SplitError
 */
export function allocate(totalCents: number, splits: readonly SplitShare[] | null | undefined, ownerId: string): Allocation[] {
  if (!Number.isSafeInteger(totalCents) || totalCents < 0) {
    throw new SplitError('split_total_mismatch', 'Total must be a non-negative integer of cents', { totalCents });
  }
  if (!splits || splits.length === 0) return [{ merchantId: ownerId, amountCents: totalCents }];
  const shares = normalize(splits, ownerId, totalCents);
  const fixedSum = shares.reduce((sum, s) => (s.kind === 'fixed' ? sum + s.value : sum), 0);
  const remainder = totalCents - fixedSum;
  const out = shares.map((s) => ({
    merchantId: s.merchantId,
    amountCents: s.kind === 'fixed' ? s.value : Number((BigInt(remainder) * BigInt(s.value)) / BigInt(FULL_HUNDREDTHS)),
  }));
  const leftover = totalCents - out.reduce((sum, a) => sum + a.amountCents, 0);
  const owner = out.find((a) => a.merchantId === ownerId) as Allocation;
  owner.amountCents += leftover;
  return out;
}

function normalize(splits: readonly SplitShare[], ownerId: string, totalCents?: number): NormalizedShare[] {
  if (!Array.isArray(splits)) throw new SplitError('split_share_invalid', 'splits must be an array');
  if (splits.length === 0) return [];
  const shares = splits.map((s, index) => normalizeShare(s, index));

  const seen = new Set<string>();
  for (const s of shares) {
    if (seen.has(s.merchantId)) {
      throw new SplitError('split_duplicate_merchant', `Merchant ${s.merchantId} appears more than once`, { merchantId: s.merchantId });
    }
    seen.add(s.merchantId);
  }
  if (!seen.has(ownerId)) {
    throw new SplitError('split_owner_missing', 'The merchant that owns the link must be in the split', { ownerId });
  }

  const percentages = shares.filter((s) => s.kind === 'percentage');
  const percentSum = percentages.reduce((sum, s) => sum + s.value, 0);
  if (percentages.length > 0 && percentSum !== FULL_HUNDREDTHS) {
    throw new SplitError('split_total_mismatch', 'Percentages must add up to exactly 100', { percentSum: percentSum / 100 });
  }
  if (totalCents !== undefined) {
    const fixedSum = shares.reduce((sum, s) => (s.kind === 'fixed' ? sum + s.value : sum), 0);
    if (fixedSum > totalCents) {
      throw new SplitError('split_total_mismatch', 'Fixed amounts exceed the total', { fixedSum, totalCents });
    }
    if (percentages.length === 0 && fixedSum !== totalCents) {
      throw new SplitError('split_total_mismatch', 'Fixed amounts must add up to the total when no percentage is given', {
        fixedSum,
        totalCents,
      });
    }
  }
  return shares;
}

function normalizeShare(share: SplitShare, index: number): NormalizedShare {
  const merchantId = share?.merchantId;
  if (typeof merchantId !== 'string' || merchantId.trim() === '') {
    throw new SplitError('split_share_invalid', `Share ${index}: merchantId is required`, { index });
  }
  const hasPercentage = share.percentage !== undefined && share.percentage !== null;
  const hasAmount = share.amountCents !== undefined && share.amountCents !== null;
  if (hasPercentage === hasAmount) {
    throw new SplitError('split_share_invalid', `Share ${index}: give exactly one of percentage or amount`, { index, merchantId });
  }
  if (hasPercentage) return { merchantId, kind: 'percentage', value: percentageHundredths(share.percentage as number, index) };
  const cents = share.amountCents as number;
  if (!Number.isSafeInteger(cents) || cents <= 0) {
    throw new SplitError('split_share_invalid', `Share ${index}: amount must be a positive integer of cents`, { index, merchantId });
  }
  return { merchantId, kind: 'fixed', value: cents };
}
