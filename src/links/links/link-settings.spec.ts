import fc from 'fast-check';
import { DEFAULT_FEE_TABLE, feeFor, PaymentMethod, simulate } from '../domain/fees';
import { SplitShare } from '../domain/splits';
import { allocatePayment, assertPriceable, buildSettings } from './link-settings';

const OWNER = 'mer_owner';
const methodAndInstallments = fc.oneof(
  fc.tuple(fc.constant<PaymentMethod>('CARD'), fc.integer({ min: 1, max: 12 })),
  fc.tuple(fc.constant<PaymentMethod>('PIX'), fc.constant(1)),
  fc.tuple(fc.constant<PaymentMethod>('BOLETO'), fc.constant(1)),
);

/** Percentages in hundredths that add up to exactly 100 %, the owner first. */
const percentSplits = fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 5 }).map((parts) => {
  const total = parts.reduce((a, b) => a + b, 0);
  const hundredths = parts.map((p) => Math.max(1, Math.floor((p * 10000) / (total + parts.length))));
  const rest = 10000 - hundredths.reduce((a, b) => a + b, 0);
  const all = [rest, ...hundredths];
  return all.map((h, i): SplitShare => ({ merchantId: i === 0 ? OWNER : `mer_p${i}`, percentage: h / 100 }));
});

/** What one payment on a link gives each merchant, as the checkout computes it. */
function paymentOf(priceCents: number, method: PaymentMethod, installments: number, passFee: boolean, splits: SplitShare[]) {
  const s = simulate({ amountCents: priceCents, method, installments, passFee });
  return { s, shares: allocatePayment({ splits, passFee }, OWNER, priceCents, s.feeCents) };
}

describe('a payment split among merchants (property-based)', () => {
  it('always distributes exactly the net, each partner getting the floor of its percentage and the owner the rest', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 400, max: 10_000_000 }),
        methodAndInstallments,
        fc.boolean(),
        percentSplits,
        (price, [method, n], passFee, splits) => {
          const { s, shares } = paymentOf(price, method, n, passFee, splits);
          expect(shares.reduce((a, x) => a + x.amountCents, 0)).toBe(s.netCents);
          for (const [i, sh] of shares.entries()) {
            if (sh.merchantId === OWNER) continue;
            expect(sh.amountCents).toBe(Math.floor((price * Math.round(splits[i].percentage! * 100)) / 10000));
          }
          // the owner's rounding bonus is less than one cent per partner
          const exact = (price * Math.round(splits[0].percentage! * 100)) / 10000 - (passFee ? 0 : s.feeCents);
          expect(shares[0].amountCents - exact).toBeGreaterThanOrEqual(0);
          expect(shares[0].amountCents - exact).toBeLessThan(splits.length);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('with passFee, the payer pays the least gross that nets the owner the price exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 100_000_000 }), methodAndInstallments, (price, [method, n]) => {
        const s = simulate({ amountCents: price, method, installments: n, passFee: true });
        expect(s.netCents).toBe(price);
        expect(s.grossCents - feeFor(DEFAULT_FEE_TABLE, method, n, s.grossCents)).toBeGreaterThanOrEqual(price);
        if (s.grossCents > 1) expect(s.grossCents - 1 - feeFor(DEFAULT_FEE_TABLE, method, n, s.grossCents - 1)).toBeLessThan(price);
      }),
      { numRuns: 400 },
    );
  });
});

describe('rounding tables', () => {
  it.each([
    // price, method, n, passFee, gross, fee, net
    [10000, 'CARD', 1, true, 10309, 309, 10000],
    [10000, 'CARD', 3, true, 10362, 362, 10000],
    [10000, 'CARD', 12, true, 10416, 416, 10000],
    [10000, 'CARD', 12, false, 10000, 399, 9601],
    [9999, 'PIX', 1, true, 10099, 100, 9999],
    [1, 'PIX', 1, true, 2, 1, 1],
    [5000, 'BOLETO', 1, true, 5349, 349, 5000],
    [5000, 'BOLETO', 1, false, 5000, 349, 4651],
  ] as const)('%i cents by %s %ix, passFee %s → gross %i, fee %i, net %i', (price, method, n, passFee, gross, fee, net) => {
    expect(simulate({ amountCents: price, method, installments: n, passFee })).toMatchObject({
      grossCents: gross,
      feeCents: fee,
      netCents: net,
    });
  });

  it.each([
    // price, splits (owner first), passFee, fee → shares
    [
      10000,
      [
        ['o', 70],
        ['a', 30],
      ],
      true,
      0,
      [7000, 3000],
    ],
    [
      10000,
      [
        ['o', 70],
        ['a', 30],
      ],
      false,
      299,
      [6701, 3000],
    ],
    [
      100,
      [
        ['o', 33.34],
        ['a', 33.33],
        ['b', 33.33],
      ],
      true,
      0,
      [34, 33, 33],
    ],
    [
      1,
      [
        ['o', 50],
        ['a', 50],
      ],
      true,
      0,
      [1, 0],
    ],
    [
      9999,
      [
        ['o', 0.01],
        ['a', 99.99],
      ],
      true,
      0,
      [1, 9998],
    ],
    [
      10000,
      [
        ['a', 1000],
        ['o', 50],
        ['b', 50],
      ],
      true,
      0,
      [1000, 4500, 4500],
    ],
  ] as const)('%i cents split %j (passFee %s, fee %i) → %j', (price, split, passFee, fee, expected) => {
    const splits: SplitShare[] = split.map(([id, v]) =>
      id === 'a' && v === 1000
        ? { merchantId: 'mer_a', amountCents: v }
        : { merchantId: id === 'o' ? OWNER : `mer_${id}`, percentage: v as number },
    );
    expect(allocatePayment({ splits, passFee }, OWNER, price, fee).map((s) => s.amountCents)).toEqual(expected);
  });
});

describe('link settings', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const base = { name: 'x', paymentMethods: ['CARD', 'PIX'] as ('CARD' | 'PIX')[] };

  it('refuses a split whose owner share cannot pay the fee unless it is passed on', () => {
    const s = buildSettings(
      {
        ...base,
        amount: 100,
        splits: [
          { merchantId: OWNER, amount: 1 },
          { merchantId: 'mer_a', amount: 99 },
        ],
      },
      OWNER,
      now,
    );
    expect(() => assertPriceable(s, DEFAULT_FEE_TABLE, OWNER, 10000)).toThrow(expect.objectContaining({ code: 'split_total_mismatch' }));
    const passed = buildSettings(
      {
        ...base,
        amount: 100,
        passFee: true,
        splits: [
          { merchantId: OWNER, amount: 1 },
          { merchantId: 'mer_a', amount: 99 },
        ],
      },
      OWNER,
      now,
    );
    expect(() => assertPriceable(passed, DEFAULT_FEE_TABLE, OWNER, 10000)).not.toThrow();
  });

  it('reads amounts exactly and keeps the open-amount bounds only without an amount', () => {
    expect(buildSettings({ ...base, amount: 1.15 }, OWNER, now).amountCents).toBe(115);
    expect(buildSettings({ ...base, minAmount: 0.1, maxAmount: 0.3 }, OWNER, now)).toMatchObject({
      amountCents: null,
      minAmountCents: 10,
      maxAmountCents: 30,
    });
    expect(() => buildSettings({ ...base, amount: 1, maxAmount: 2 }, OWNER, now)).toThrow(
      expect.objectContaining({ code: 'invalid_link' }),
    );
  });
});
