/**
 * What a refund takes back from each merchant of a split payment, and from the platform's fee.
 * Pure, in integer cents.
 *
 * The payer gets back what they paid (`gross`, the passed-on fee included): the refund's amount
 * is never reduced. Who bears it:
 * - `keep` (the default, as Stripe keeps its fee on a refund): the platform keeps its fee; the
 *   merchants bear the whole refund, each in proportion to their share of the net.
 * - `return`: the platform gives back its fee in proportion to the refund (`fee × R / gross`,
 *   rounded down), and the merchants bear the rest, in the same proportions.
 * The merchants' parts are rounded by largest remainder (ties to the earlier share), so they sum
 * to exactly what the merchants bear; a merchant with no share bears nothing.
 */
export type PlatformFeeOnRefund = 'keep' | 'return';

export interface SplitShareCents {
  merchantId: string;
  amountCents: number;
}

export interface SplitReversal {
  /** What each merchant gives back, in the split's order. */
  merchants: SplitShareCents[];
  /** What the platform gives back of its fee. */
  platformFeeCents: number;
}

export function reverseSplits(
  refundCents: number,
  payment: { grossCents: number; feeCents: number; splits: readonly SplitShareCents[] },
  fee: PlatformFeeOnRefund,
): SplitReversal {
  const feeBack = fee === 'return' && payment.grossCents > 0 ? Math.floor((payment.feeCents * refundCents) / payment.grossCents) : 0;
  const borne = refundCents - feeBack;
  const net = payment.splits.reduce((s, x) => s + Math.max(0, x.amountCents), 0);
  if (!payment.splits.length || net <= 0) return { merchants: [], platformFeeCents: feeBack };
  const exact = payment.splits.map((s) => (Math.max(0, s.amountCents) * borne) / net);
  const parts = exact.map(Math.floor);
  let left = borne - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, rem: x - Math.floor(x) })).sort((a, b) => b.rem - a.rem || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if (payment.splits[i].amountCents <= 0) continue;
    parts[i]++;
    left--;
  }
  return { merchants: payment.splits.map((s, i) => ({ merchantId: s.merchantId, amountCents: parts[i] })), platformFeeCents: feeBack };
}
