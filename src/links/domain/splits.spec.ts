import fc from 'fast-check';
import { allocate, percentageHundredths, SplitError, SplitShare, splitsFromApi, validateSplits } from './splits';

function expectCode(fn: () => unknown, code: string): void {
  expect(fn).toThrow(SplitError);
  try {
    fn();
  } catch (e) {
    expect((e as SplitError).code).toBe(code);
  }
}

describe('allocate: examples', () => {
  it('gives everything to the owner when no split is configured', () => {
    expect(allocate(1000, [], 'own')).toEqual([{ merchantId: 'own', amountCents: 1000 }]);
    expect(allocate(1000, undefined, 'own')).toEqual([{ merchantId: 'own', amountCents: 1000 }]);
  });

  it('splits by percentage and gives the rounding cents to the owner', () => {
    const splits = [
      { merchantId: 'a', percentage: 33.33 },
      { merchantId: 'own', percentage: 33.34 },
      { merchantId: 'b', percentage: 33.33 },
    ];
    // 1001 * 33.33 % = 333.63 -> 333 each for a and b; owner 1001 - 666
    expect(allocate(1001, splits, 'own')).toEqual([
      { merchantId: 'a', amountCents: 333 },
      { merchantId: 'own', amountCents: 335 },
      { merchantId: 'b', amountCents: 333 },
    ]);
  });

  it('serves fixed amounts first and divides the rest by percentage', () => {
    const splits = [
      { merchantId: 'platform', amountCents: 500 },
      { merchantId: 'own', percentage: 70 },
      { merchantId: 'partner', percentage: 30 },
    ];
    // remainder 9501: partner floor(2850.3) = 2850, owner 9501 - 2850 = 6651
    expect(allocate(10_001, splits, 'own')).toEqual([
      { merchantId: 'platform', amountCents: 500 },
      { merchantId: 'own', amountCents: 6651 },
      { merchantId: 'partner', amountCents: 2850 },
    ]);
  });

  it('accepts fixed amounts that add up to the total', () => {
    const splits = [
      { merchantId: 'own', amountCents: 700 },
      { merchantId: 'x', amountCents: 300 },
    ];
    expect(allocate(1000, splits, 'own')).toEqual([
      { merchantId: 'own', amountCents: 700 },
      { merchantId: 'x', amountCents: 300 },
    ]);
  });
});

describe('split rules', () => {
  it('split_owner_missing', () => {
    expectCode(() => allocate(1000, [{ merchantId: 'a', percentage: 100 }], 'own'), 'split_owner_missing');
    expectCode(() => validateSplits([{ merchantId: 'a', percentage: 100 }], 'own'), 'split_owner_missing');
  });

  it('split_duplicate_merchant', () => {
    const splits = [
      { merchantId: 'own', percentage: 50 },
      { merchantId: 'own', percentage: 50 },
    ];
    expectCode(() => allocate(1000, splits, 'own'), 'split_duplicate_merchant');
  });

  it.each<[string, SplitShare]>([
    ['both percentage and amount', { merchantId: 'own', percentage: 50, amountCents: 100 }],
    ['neither', { merchantId: 'own' }],
    ['zero percentage', { merchantId: 'own', percentage: 0 }],
    ['negative percentage', { merchantId: 'own', percentage: -5 }],
    ['over 100', { merchantId: 'own', percentage: 100.01 }],
    ['3 decimals', { merchantId: 'own', percentage: 33.333 }],
    ['NaN', { merchantId: 'own', percentage: Number.NaN }],
    ['zero amount', { merchantId: 'own', amountCents: 0 }],
    ['fractional cents', { merchantId: 'own', amountCents: 10.5 }],
    ['empty merchant', { merchantId: ' ', percentage: 100 }],
  ])('split_share_invalid: %s', (_name, share) => {
    expectCode(() => validateSplits([share], 'own'), 'split_share_invalid');
  });

  it('split_total_mismatch', () => {
    expectCode(() => validateSplits([{ merchantId: 'own', percentage: 99.99 }], 'own'), 'split_total_mismatch');
    expectCode(
      () =>
        allocate(
          1000,
          [
            { merchantId: 'own', percentage: 100 },
            { merchantId: 'x', amountCents: 1001 },
          ],
          'own',
        ),
      'split_total_mismatch',
    );
    expectCode(
      () =>
        allocate(
          1000,
          [
            { merchantId: 'own', amountCents: 600 },
            { merchantId: 'x', amountCents: 300 },
          ],
          'own',
        ),
      'split_total_mismatch',
    );
    expectCode(() => allocate(-1, [{ merchantId: 'own', percentage: 100 }], 'own'), 'split_total_mismatch');
    // without a total only the percentage sum can be checked
    expect(() => validateSplits([{ merchantId: 'own', amountCents: 600 }], 'own')).not.toThrow();
  });

  it('reads percentages exactly and converts API amounts from BRL', () => {
    expect(percentageHundredths(12.5)).toBe(1250);
    expect(percentageHundredths(0.01)).toBe(1);
    expect(percentageHundredths(100)).toBe(10_000);
    expect(
      splitsFromApi([
        { merchantId: 'a', amount: 12.34 },
        { merchantId: 'b', percentage: 50, amount: null },
      ]),
    ).toEqual([
      { merchantId: 'a', amountCents: 1234 },
      { merchantId: 'b', percentage: 50 },
    ]);
    expect(splitsFromApi(null)).toEqual([]);
    expectCode(() => splitsFromApi([{ merchantId: 'a', amount: 1.234 }]), 'split_share_invalid');
  });
});

/** Random valid split configurations with their total. */
const validCase = fc
  .record({
    total: fc.integer({ min: 0, max: 10_000_000_000 }),
    n: fc.integer({ min: 1, max: 8 }),
    ownerPos: fc.nat(),
    mode: fc.constantFrom('percent', 'fixed', 'mixed'),
    cuts: fc.array(fc.integer({ min: 1, max: 9_999 }), { minLength: 7, maxLength: 7 }),
    fixedWeights: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 8, maxLength: 8 }),
    fixedCount: fc.nat(),
  })
  .map(({ total, n, ownerPos, mode, cuts, fixedWeights, fixedCount }): { total: number; ownerId: string; splits: SplitShare[] } => {
    const ids = Array.from({ length: n }, (_, i) => `m${i}`);
    const ownerId = ids[ownerPos % n];
    // split 10000 hundredths into k positive parts
    const partition = (k: number): number[] => {
      const points = [...new Set(cuts.slice(0, k - 1))].sort((a, b) => a - b);
      const bounds = [0, ...points, 10_000];
      return bounds.slice(1).map((b, i) => b - bounds[i]);
    };
    if (mode === 'percent' || (mode === 'mixed' && n === 1)) {
      const parts = partition(n);
      const used = ids.slice(0, parts.length);
      if (!used.includes(ownerId)) used[used.length - 1] = ownerId;
      return { total, ownerId, splits: used.map((id, i) => ({ merchantId: id, percentage: parts[i] / 100 })) };
    }
    const nFixed = mode === 'fixed' ? n : 1 + (fixedCount % (n - 1));
    const budget = mode === 'fixed' ? total : Math.floor(total / 2);
    const w = fixedWeights.slice(0, nFixed);
    const wSum = w.reduce((a, b) => a + b, 0);
    const fixed = w.map((x) => Math.floor((budget * x) / wSum));
    fixed[0] += budget - fixed.reduce((a, b) => a + b, 0);
    if (fixed.some((f) => f <= 0)) return { total: n, ownerId, splits: ids.map((id) => ({ merchantId: id, amountCents: 1 })) };
    const splits: SplitShare[] = ids.slice(0, nFixed).map((id, i) => ({ merchantId: id, amountCents: fixed[i] }));
    const parts = partition(n - nFixed);
    ids.slice(nFixed, nFixed + parts.length).forEach((id, i) => splits.push({ merchantId: id, percentage: parts[i] / 100 }));
    if (!splits.some((s) => s.merchantId === ownerId)) splits[splits.length - 1].merchantId = ownerId;
    return { total, ownerId, splits };
  });

describe('allocate: properties', () => {
  it('sums exactly to the total, is never negative, and the owner gets the rounding remainder', () => {
    fc.assert(
      fc.property(validCase, ({ total, ownerId, splits }) => {
        const result = allocate(total, splits, ownerId);
        expect(result.map((r) => r.merchantId)).toEqual(splits.map((s) => s.merchantId));
        expect(result.reduce((s, r) => s + r.amountCents, 0)).toBe(total);
        for (const r of result) {
          expect(Number.isSafeInteger(r.amountCents)).toBe(true);
          expect(r.amountCents).toBeGreaterThanOrEqual(0);
        }
        const fixedSum = splits.reduce((s, x) => s + (x.amountCents ?? 0), 0);
        const rest = total - fixedSum;
        const nominal = (s: SplitShare) =>
          s.amountCents !== undefined ? s.amountCents : Math.floor((rest * Math.round((s.percentage as number) * 100)) / 10_000);
        let leftover = total;
        splits.forEach((s, i) => {
          leftover -= nominal(s);
          if (s.merchantId !== ownerId) expect(result[i].amountCents).toBe(nominal(s));
        });
        const ownerIndex = splits.findIndex((s) => s.merchantId === ownerId);
        expect(leftover).toBeGreaterThanOrEqual(0);
        expect(leftover).toBeLessThan(Math.max(1, splits.filter((s) => s.percentage !== undefined).length));
        expect(result[ownerIndex].amountCents).toBe(nominal(splits[ownerIndex]) + leftover);
      }),
      { numRuns: 500 },
    );
  });
});
