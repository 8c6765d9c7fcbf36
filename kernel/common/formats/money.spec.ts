import fc from 'fast-check';
import { centsToDecimalString, fromCents, isCents, MAX_CENTS, MoneyError, toCents } from './money';

function expectCode(fn: () => unknown, code: string): void {
  expect(fn).toThrow(MoneyError);
  try {
    fn();
  } catch (e) {
    expect((e as MoneyError).code).toBe(code);
    expect((e as MoneyError).name).toBe('MoneyError');
  }
}

describe('toCents', () => {
  it.each([
    [0, 0],
    [-0, 0],
    [1, 100],
    [0.01, 1],
    [0.1, 10],
    [1.15, 115], // 1.15 * 100 = 114.99999999999999 in floats
    [4.35, 435],
    [19.99, 1999],
    [12.3, 1230],
    [1234567.89, 123456789],
    [9999999999999.99, 999999999999999],
  ])('%p BRL -> %p cents', (amount, cents) => expect(toCents(amount)).toBe(cents));

  it('rejects more than 2 decimals, negatives, non-numbers and huge values', () => {
    expectCode(() => toCents(1.001), 'amount_too_many_decimals');
    expectCode(() => toCents(0.1 + 0.2), 'amount_too_many_decimals');
    expectCode(() => toCents(1e-7), 'amount_too_many_decimals');
    expectCode(() => toCents(-1), 'amount_negative');
    expectCode(() => toCents(Number.NaN), 'amount_not_a_number');
    expectCode(() => toCents(Number.POSITIVE_INFINITY), 'amount_not_a_number');
    expectCode(() => toCents('10' as unknown as number), 'amount_not_a_number');
    expectCode(() => toCents(1e21), 'amount_too_large');
    expectCode(() => toCents(10000000000000), 'amount_too_large');
    expectCode(() => fromCents(MAX_CENTS + 1), 'amount_too_large');
  });

  it('round-trips every amount of cents through BRL units and JSON', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: 0, max: MAX_CENTS }), fc.integer({ min: 100_000_000_000_000, max: MAX_CENTS })), (cents) => {
        expect(toCents(fromCents(cents))).toBe(cents);
        expect(toCents(JSON.parse(JSON.stringify({ a: fromCents(cents) })).a)).toBe(cents);
        expect(centsToDecimalString(cents)).toBe(`${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('rejects every value with a third decimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 1, max: 9 }), (cents, third) => {
        const value = Number(`${centsToDecimalString(cents)}${third}`);
        expect(() => toCents(value)).toThrow(MoneyError);
      }),
    );
  });
});

describe('fromCents and centsToDecimalString', () => {
  it('convert integer cents', () => {
    expect(fromCents(1234)).toBe(12.34);
    expect(fromCents(5)).toBe(0.05);
    expect(centsToDecimalString(5)).toBe('0.05');
    expect(centsToDecimalString(-1234)).toBe('-12.34');
    expect(centsToDecimalString(100)).toBe('1.00');
    expect(isCents(10)).toBe(true);
    expect(isCents(1.5)).toBe(false);
    expectCode(() => fromCents(1.5), 'amount_not_a_number');
    expectCode(() => centsToDecimalString(Number.NaN), 'amount_not_a_number');
  });
});

describe('decimalStringToCents (API Pix and acquirer amounts)', () => {
  it('reads digits, not floats', () => {
    const { decimalStringToCents } = require('./money');
    expect(decimalStringToCents('150.75')).toBe(15075);
    expect(decimalStringToCents('10.5')).toBe(1050);
    expect(decimalStringToCents('3')).toBe(300);
    expect(decimalStringToCents('0.29')).toBe(29);
    expect(decimalStringToCents('9999999999999.99')).toBe(999_999_999_999_999);
    for (const bad of ['', '-1.00', '1.005', '1e3', '10,00', ' 1.00', '99999999999999.00']) expect(decimalStringToCents(bad)).toBeNull();
  });
});
