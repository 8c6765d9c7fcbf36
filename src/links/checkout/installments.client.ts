/**
 * How an installment option reads, on the server (the page as served) and in the checkout
 * script (an open amount's quote): one source, served as text like the script's other parts, so
 * it takes no imports and no outer variables. `short` is the option's text, short enough for a
 * 375 px select ("3x de R$ 51,81 sem juros", "3x de R$ 53,10 (total R$ 159,30)"); `full` is
 * every installment and whether it bears interest, for screen readers and the line under the
 * select. Amounts are the ones the server charges: the first installment carries the remainder.
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
  const interest = !passFee ? t('instNoInterest') : n > 1 ? t('instInterest') : t('instFeeIncluded');
  const short = !passFee
    ? t('instFree', { n, each: brl(each) })
    : n > 1
      ? t('instFee', { n, each: brl(each), total: brl(total) })
      : t('instFee1', { amount: brl(total) });
  const full =
    first === each
      ? t('instDetailEqual', { n, each: brl(each), total: brl(total), interest })
      : t('instDetailUneven', { first: brl(first), rest: n - 1, each: brl(each), total: brl(total), interest });
  return { short, full };
}
