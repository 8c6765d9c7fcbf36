import fc from 'fast-check';
import { reverseSplits } from './split-reversal';

const payment = {
  grossCents: 10362,
  feeCents: 362,
  splits: [
    { merchantId: 'owner', amountCents: 7000 },
    { merchantId: 'partner', amountCents: 3000 },
  ],
};

describe('the split reversal of a refund', () => {
  it('keep: the platform keeps its fee; the merchants bear the refund in proportion to their shares', () => {
    expect(reverseSplits(10362, payment, 'keep')).toEqual({
      merchants: [
        { merchantId: 'owner', amountCents: 7253 },
        { merchantId: 'partner', amountCents: 3109 },
      ],
      platformFeeCents: 0,
    });
    expect(reverseSplits(1000, payment, 'keep').merchants.map((m) => m.amountCents)).toEqual([700, 300]);
  });

  it('return: the platform gives back its fee in proportion; the merchants bear the rest', () => {
    const full = reverseSplits(10362, payment, 'return');
    expect(full.platformFeeCents).toBe(362);
    expect(full.merchants.map((m) => m.amountCents)).toEqual([7000, 3000]);
    const part = reverseSplits(5181, payment, 'return');
    expect(part.platformFeeCents).toBe(181);
    expect(part.merchants.map((m) => m.amountCents)).toEqual([3500, 1500]);
  });

  it('no split: the owner alone (nothing to divide), the fee as set', () => {
    expect(reverseSplits(500, { grossCents: 1000, feeCents: 100, splits: [] }, 'return')).toEqual({ merchants: [], platformFeeCents: 50 });
  });

  it('always sums to the refund exactly, never negative, never more than proportional by a cent', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('keep' as const, 'return' as const),
        (shares, feeCents, fraction, fee) => {
          const net = shares.reduce((a, b) => a + b, 0);
          fc.pre(net > 0);
          const gross = net + feeCents;
          const refund = Math.max(1, Math.floor(gross * fraction));
          const r = reverseSplits(
            refund,
            { grossCents: gross, feeCents, splits: shares.map((a, i) => ({ merchantId: `m${i}`, amountCents: a })) },
            fee,
          );
          const sum = r.merchants.reduce((a, m) => a + m.amountCents, 0) + r.platformFeeCents;
          expect(sum).toBe(refund);
          for (const [i, m] of r.merchants.entries()) {
            expect(m.amountCents).toBeGreaterThanOrEqual(0);
            expect(Math.abs(m.amountCents - (shares[i] * (refund - r.platformFeeCents)) / net)).toBeLessThan(1);
          }
        },
      ),
    );
  });
});
