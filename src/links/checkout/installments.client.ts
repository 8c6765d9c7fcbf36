/**
 * How an installment option reads, on the server (the page as served) and in the checkout
 * script (an open amount's quote): one source, served as text like the script's other parts, so
 * it takes no imports and no outer variables. `short` is the option's text, short enough for a
 * 375 px select ("3x de R$ 51,81 sem juros", "3x de R$ 53,10 (total R$ 159,30)"); `full` adds
 * the first installment when it carries the remainder, the total, and whether it bears interest,
 * for screen readers (the option's name) and the line under the select. Amounts are the ones the server charges: the first installment carries the remainder.
 */
export function installmentText(
  t: (k: string, vars?: Record<string, string | number>) => string,
  brl: (amount: number) => string,
  amounts: readonly number[],
  total: number,
  passFee: boolean,
): { short: string; full: string } {
  const n = amounts.length;
  const first = amounts[0];
  const each = amounts[n - 1];
  const short = !passFee
    ? t('instFree', { n, each: brl(each) })
    : n > 1
      ? t('instFee', { n, each: brl(each), total: brl(total) })
      : t('instFee1', { amount: brl(total) });
  // The full text starts with the short one (a screen reader's name holds the words shown).
  const parts = [short];
  if (first !== each) parts.push(t('instFirst', { first: brl(first) }));
  parts.push(!passFee ? t('instTotal', { total: brl(total) }) : n > 1 ? t('instInterest') : t('instFeeIncluded'));
  const full = parts.join(', ') + '.';
  return { short, full };
}
