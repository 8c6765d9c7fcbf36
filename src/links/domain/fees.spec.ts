import fc from 'fast-check';
import {
  allowedInstallments,
  cardRateBands,
  DEFAULT_FEE_TABLE,
  FeeError,
  feeFor,
  FeeTable,
  grossUp,
  MAX_AMOUNT_CENTS,
  netFor,
  PaymentMethod,
  simulate,
  simulateAll,
  splitInstallments,
  validateFeeTable,
} from './fees';

function expectCode(fn: () => unknown, code: string): void {
  expect(fn).toThrow(FeeError);
  try {
    fn();
  } catch (e) {
    expect((e as FeeError).code).toBe(code);
  }
}

const methodAndInstallments = fc.oneof(
  fc.tuple(fc.constant<PaymentMethod>('CARD'), fc.integer({ min: 1, max: 12 })),
  fc.tuple(fc.constant<PaymentMethod>('PIX'), fc.constant(1)),
  fc.tuple(fc.constant<PaymentMethod>('BOLETO'), fc.constant(1)),
);

const tableArb: fc.Arbitrary<FeeTable> = fc
  .record({
    b1: fc.integer({ min: 0, max: 9999 }),
    b2: fc.integer({ min: 0, max: 9999 }),
    b3: fc.integer({ min: 0, max: 9999 }),
    cardFixed: fc.integer({ min: 0, max: 1000 }),
    pix: fc.integer({ min: 0, max: 9999 }),
    pixFixed: fc.integer({ min: 0, max: 1000 }),
    boleto: fc.integer({ min: 0, max: 1000 }),
  })
  .map((r) => ({
    CARD: {
      percentBps: cardRateBands([
        { from: 1, to: 1, percentBps: r.b1 },
        { from: 2, to: 6, percentBps: r.b2 },
        { from: 7, to: 12, percentBps: r.b3 },
      ]),
      fixedCents: r.cardFixed,
    },
    PIX: { percentBps: r.pix, fixedCents: r.pixFixed },
    BOLETO: { fixedCents: r.boleto },
  }));

describe('fee table', () => {
  it('has the documented sandbox defaults', () => {
    expect(validateFeeTable(DEFAULT_FEE_TABLE)).toBe(DEFAULT_FEE_TABLE);
    expect(DEFAULT_FEE_TABLE.CARD.percentBps[1]).toBe(299);
    for (let n = 2; n <= 6; n++) expect(DEFAULT_FEE_TABLE.CARD.percentBps[n]).toBe(349);
    for (let n = 7; n <= 12; n++) expect(DEFAULT_FEE_TABLE.CARD.percentBps[n]).toBe(399);
    expect(DEFAULT_FEE_TABLE.CARD.fixedCents).toBe(0);
    expect(DEFAULT_FEE_TABLE.PIX).toEqual({ percentBps: 99, fixedCents: 0 });
    expect(DEFAULT_FEE_TABLE.BOLETO).toEqual({ fixedCents: 349 });
    expect(Object.isFrozen(DEFAULT_FEE_TABLE.CARD.percentBps)).toBe(true);
  });

  it('rejects an incomplete or out-of-range table', () => {
    const missing11 = { ...DEFAULT_FEE_TABLE, CARD: { fixedCents: 0, percentBps: cardRateBands([{ from: 1, to: 10, percentBps: 300 }]) } };
    expectCode(() => validateFeeTable(missing11), 'fee_table_invalid');
    expectCode(() => validateFeeTable({ ...DEFAULT_FEE_TABLE, PIX: { percentBps: 10_000, fixedCents: 0 } }), 'fee_table_invalid');
    expectCode(() => validateFeeTable({ ...DEFAULT_FEE_TABLE, PIX: { percentBps: 1.5, fixedCents: 0 } }), 'fee_table_invalid');
    expectCode(() => validateFeeTable({ ...DEFAULT_FEE_TABLE, BOLETO: { fixedCents: -1 } }), 'fee_table_invalid');
    expectCode(() => feeFor(missing11, 'CARD', 11, 1000), 'fee_table_invalid');
  });

  it('lists the allowed installment counts', () => {
    expect(allowedInstallments('CARD')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(allowedInstallments('CARD', 3)).toEqual([1, 2, 3]);
    expect(allowedInstallments('PIX', 12)).toEqual([1]);
    expect(allowedInstallments('BOLETO')).toEqual([1]);
    expectCode(() => allowedInstallments('CARD', 13), 'fee_installments_invalid');
    expectCode(() => allowedInstallments('CASH' as PaymentMethod), 'fee_method_invalid');
  });
});

describe('feeFor', () => {
  it('rounds the percentage part up to the cent and adds the fixed part', () => {
    expect(feeFor(DEFAULT_FEE_TABLE, 'CARD', 1, 10_000)).toBe(299); // exactly 299.00
    expect(feeFor(DEFAULT_FEE_TABLE, 'CARD', 1, 10_001)).toBe(300); // 299.0299 -> 300
    expect(feeFor(DEFAULT_FEE_TABLE, 'CARD', 1, 1)).toBe(1); // 0.0299 -> 1
    expect(feeFor(DEFAULT_FEE_TABLE, 'CARD', 3, 10_000)).toBe(349);
    expect(feeFor(DEFAULT_FEE_TABLE, 'CARD', 12, 10_000)).toBe(399);
    expect(feeFor(DEFAULT_FEE_TABLE, 'PIX', 1, 10_000)).toBe(99);
    expect(feeFor(DEFAULT_FEE_TABLE, 'PIX', 1, 101)).toBe(1); // 0.9999 -> 1
    expect(feeFor(DEFAULT_FEE_TABLE, 'BOLETO', 1, 10_000)).toBe(349);
    expect(netFor(DEFAULT_FEE_TABLE, 'BOLETO', 1, 100)).toBe(-249);
  });

  it('refuses bad installments and amounts', () => {
    expectCode(() => feeFor(DEFAULT_FEE_TABLE, 'PIX', 2, 1000), 'fee_installments_invalid');
    expectCode(() => feeFor(DEFAULT_FEE_TABLE, 'BOLETO', 0, 1000), 'fee_installments_invalid');
    expectCode(() => feeFor(DEFAULT_FEE_TABLE, 'CARD', 13, 1000), 'fee_installments_invalid');
    expectCode(() => feeFor(DEFAULT_FEE_TABLE, 'CARD', 1.5, 1000), 'fee_installments_invalid');
    expectCode(() => feeFor(DEFAULT_FEE_TABLE, 'CARD', 1, 0), 'fee_amount_invalid');
    expectCode(() => feeFor(DEFAULT_FEE_TABLE, 'CARD', 1, 10.5), 'fee_amount_invalid');
  });

  it('equals ceil(gross * bps / 10000) + fixed, checked with BigInt', () => {
    fc.assert(
      fc.property(tableArb, methodAndInstallments, fc.integer({ min: 1, max: 100_000_000_000 }), (table, [method, n], gross) => {
        const bps = method === 'CARD' ? table.CARD.percentBps[n] : method === 'PIX' ? table.PIX.percentBps : 0;
        const fixed = table[method].fixedCents;
        const num = BigInt(gross) * BigInt(bps);
        const ceil = (num + 9999n) / 10000n;
        expect(feeFor(table, method, n, gross)).toBe(Number(ceil) + fixed);
      }),
    );
  });
});

describe('grossUp', () => {
  it('finds the least gross for known values', () => {
    // 10000 net at 2.99 %: 10000 / 0.9701 = 10308.21… -> 10309
    expect(grossUp(DEFAULT_FEE_TABLE, 'CARD', 1, 10_000)).toBe(10_309);
    expect(netFor(DEFAULT_FEE_TABLE, 'CARD', 1, 10_309)).toBe(10_000);
    expect(netFor(DEFAULT_FEE_TABLE, 'CARD', 1, 10_308)).toBe(9_999);
    expect(grossUp(DEFAULT_FEE_TABLE, 'BOLETO', 1, 10_000)).toBe(10_349);
    expect(grossUp(DEFAULT_FEE_TABLE, 'PIX', 1, 1)).toBe(2);
  });

  it('is the least gross whose net reaches the desired net, and that net is exact', () => {
    fc.assert(
      fc.property(tableArb, methodAndInstallments, fc.integer({ min: 1, max: 1_000_000_000 }), (table, [method, n], desired) => {
        let g: number;
        try {
          g = grossUp(table, method, n, desired);
        } catch (e) {
          // only when the required gross is beyond MAX_AMOUNT_CENTS (rates close to 100 %)
          expect((e as FeeError).code).toBe('fee_amount_invalid');
          const bps = method === 'CARD' ? table.CARD.percentBps[n] : method === 'PIX' ? table.PIX.percentBps : 0;
          const need = (BigInt(desired + table[method].fixedCents) * 10000n + BigInt(9999 - bps)) / BigInt(10000 - bps);
          expect(need > BigInt(MAX_AMOUNT_CENTS)).toBe(true);
          return;
        }
        expect(netFor(table, method, n, g)).toBeGreaterThanOrEqual(desired);
        if (g > 1) expect(netFor(table, method, n, g - 1)).toBeLessThan(desired);
        expect(netFor(table, method, n, g)).toBe(desired);
      }),
      { numRuns: 500 },
    );
  });
});

describe('simulate', () => {
  it('without pass-through the payer pays the amount and the owner gets the rest', () => {
    expect(simulate({ amountCents: 10_000, method: 'CARD', installments: 3 })).toEqual({
      method: 'CARD',
      installments: 3,
      passFee: false,
      percentBps: 349,
      fixedCents: 0,
      grossCents: 10_000,
      feeCents: 349,
      netCents: 9_651,
      installmentCents: [3_334, 3_333, 3_333],
    });
  });

  it('with pass-through the owner nets exactly the amount', () => {
    const s = simulate({ amountCents: 10_000, method: 'CARD', installments: 1, passFee: true });
    expect(s).toMatchObject({ grossCents: 10_309, feeCents: 309, netCents: 10_000, installmentCents: [10_309] });
    expect(simulate({ amountCents: 5_000, method: 'BOLETO', passFee: true })).toMatchObject({ grossCents: 5_349, netCents: 5_000 });
  });

  it('refuses a fee larger than the amount and installments under one cent', () => {
    expectCode(() => simulate({ amountCents: 100, method: 'BOLETO' }), 'fee_exceeds_amount');
    expectCode(() => simulate({ amountCents: 5, method: 'CARD', installments: 12 }), 'fee_installment_too_small');
    expectCode(() => simulate({ amountCents: 500, method: 'PIX', installments: 2 }), 'fee_installments_invalid');
  });

  it('simulateAll covers every allowed installment count', () => {
    const all = simulateAll({ amountCents: 10_000, method: 'CARD', passFee: true });
    expect(all.map((s) => s.installments)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(all.map((s) => s.percentBps)).toEqual([299, 349, 349, 349, 349, 349, 399, 399, 399, 399, 399, 399]);
    for (const s of all) expect(s.netCents).toBe(10_000);
    expect(simulateAll({ amountCents: 10_000, method: 'CARD', maxInstallments: 6 })).toHaveLength(6);
    expect(simulateAll({ amountCents: 10_000, method: 'PIX' })).toHaveLength(1);
    expect(simulateAll({ amountCents: 5, method: 'CARD' }).map((s) => s.installments)).toEqual([1, 2, 3, 4, 5]);
  });

  it('installments always sum to gross, the first carries the remainder', () => {
    fc.assert(
      fc.property(
        tableArb,
        methodAndInstallments,
        fc.integer({ min: 1, max: 1_000_000_000 }),
        fc.boolean(),
        (table, [method, n], amount, passFee) => {
          let s;
          try {
            s = simulate({ amountCents: amount, method, installments: n, passFee }, table);
          } catch (e) {
            expect(e).toBeInstanceOf(FeeError);
            const allowed = ['fee_exceeds_amount', 'fee_installment_too_small', ...(passFee ? ['fee_amount_invalid'] : [])];
            expect(allowed).toContain((e as FeeError).code);
            return;
          }
          expect(s.installmentCents).toHaveLength(n);
          expect(s.installmentCents.reduce((a, b) => a + b, 0)).toBe(s.grossCents);
          const rest = s.installmentCents.slice(1);
          for (const p of rest) expect(p).toBe(Math.floor(s.grossCents / n));
          expect(s.installmentCents[0] - Math.floor(s.grossCents / n)).toBe(s.grossCents % n);
          expect(s.grossCents - s.feeCents).toBe(s.netCents);
          if (passFee) expect(s.netCents).toBe(amount);
          else expect(s.grossCents).toBe(amount);
        },
      ),
    );
  });

  it('splitInstallments validates its input', () => {
    expect(splitInstallments(100, 3)).toEqual([34, 33, 33]);
    expectCode(() => splitInstallments(100, 0), 'fee_installments_invalid');
    expectCode(() => splitInstallments(2, 3), 'fee_installment_too_small');
  });
});
