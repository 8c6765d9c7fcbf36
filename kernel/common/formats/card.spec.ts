import fc from 'fast-check';
import { cardBrand, cvvLength, luhnValid, maskPan, panDigits, validCvv, validExpiry } from './card';

/** Appends the Luhn check digit (computed here, independently of the module). */
function withCheckDigit(body: string): string {
  const digits = [...body].map(Number).reverse();
  const sum = digits.reduce((s, d, i) => s + (i % 2 === 0 ? (d * 2 > 9 ? d * 2 - 9 : d * 2) : d), 0);
  return body + ((10 - (sum % 10)) % 10);
}

describe('luhnValid', () => {
  it.each([
    '4111111111111111',
    '4111 1111 1111 1111',
    '4111-1111-1111-1111',
    '5555555555554444',
    '2223003122003222',
    '378282246310005',
    '36227206271667',
    '6011111111111117',
    '6062825624254001',
    '6362970000457013',
    '4000000000002701',
  ])('accepts %s', (pan) => expect(luhnValid(pan)).toBe(true));

  it.each(['4111111111111112', '', '1234', '41111111111111111111', '4111a11111111111', '0000 0000 000x'])('rejects %s', (pan) =>
    expect(luhnValid(pan)).toBe(false),
  );

  it('accepts every number with a correct check digit and rejects any single-digit change', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11,18}$/), fc.nat(), fc.integer({ min: 1, max: 9 }), (body, pos, delta) => {
        const pan = withCheckDigit(body);
        expect(luhnValid(pan)).toBe(true);
        const i = pos % pan.length;
        const changed = pan.slice(0, i) + ((Number(pan[i]) + delta) % 10) + pan.slice(i + 1);
        expect(luhnValid(changed)).toBe(false);
      }),
    );
  });
});

describe('cardBrand', () => {
  it.each([
    ['4111111111111111', 'visa'],
    ['4000000000002701', 'visa'],
    ['5105105105105100', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000000', 'mastercard'],
    ['2721000000000000', null],
    ['2220990000000000', null],
    ['378282246310005', 'amex'],
    ['341111111111111', 'amex'],
    ['4011780000000000', 'elo'],
    ['4389350000000000', 'elo'],
    ['4576320000000000', 'elo'],
    ['5041750000000000', 'elo'],
    ['5066990000000000', 'elo'],
    ['5067780000000000', 'elo'],
    ['5090000000000000', 'elo'],
    ['6277800000000000', 'elo'],
    ['6362970000457013', 'elo'],
    ['6363680000000000', 'elo'],
    ['6500310000000000', 'elo'],
    ['6516520000000000', 'elo'],
    ['6550000000000000', 'elo'],
    ['6550200000000000', 'discover'], // 655020 is a gap between Elo ranges
    ['6500000000000000', 'discover'],
    ['6062825624254001', 'hipercard'],
    ['3841001111222233', 'hipercard'],
    ['36227206271667', 'diners'],
    ['30569309025904', 'diners'],
    ['3852000002323700', 'diners'],
    ['3060000000000000', null],
    ['6011111111111117', 'discover'],
    ['6011000990139424', 'discover'],
    ['5011000000000000', null],
    ['9999999999999999', null],
    ['', null],
  ])('%s -> %s', (pan, brand) => expect(cardBrand(pan)).toBe(brand));

  it('reads Visa for any 4-prefix outside the Elo ranges', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^4\d{15}$/), (pan) => {
        const bin = Number(pan.slice(0, 6));
        const elo = [401178, 401179, 431274, 438935, 451416, 457393, 457631, 457632].includes(bin);
        expect(cardBrand(pan)).toBe(elo ? 'elo' : 'visa');
      }),
    );
  });
});

describe('cvv', () => {
  it('is 4 digits for amex and 3 otherwise', () => {
    expect(cvvLength('amex')).toBe(4);
    for (const b of ['visa', 'mastercard', 'elo', 'hipercard', 'diners', 'discover'] as const) expect(cvvLength(b)).toBe(3);
    expect(validCvv('1234', 'amex')).toBe(true);
    expect(validCvv('123', 'amex')).toBe(false);
    expect(validCvv('123', 'visa')).toBe(true);
    expect(validCvv('12a', 'visa')).toBe(false);
  });
});

describe('validExpiry', () => {
  const now = new Date('2026-05-15T12:00:00Z');
  it('accepts the current month through its last day (Brasília calendar)', () => {
    expect(validExpiry(5, 2026, now)).toBe(true);
    expect(validExpiry(5, 26, now)).toBe(true);
    expect(validExpiry(4, 2026, now)).toBe(false);
    expect(validExpiry(12, 2025, now)).toBe(false);
    expect(validExpiry(6, 2026, now)).toBe(true);
    // 2026-06-01T02:00Z is still 31 May in Brasília
    expect(validExpiry(5, 2026, new Date('2026-06-01T02:00:00Z'))).toBe(true);
    expect(validExpiry(5, 2026, new Date('2026-06-01T03:00:00Z'))).toBe(false);
  });

  it('refuses bad months, bad years and dates too far ahead', () => {
    expect(validExpiry(0, 2027, now)).toBe(false);
    expect(validExpiry(13, 2027, now)).toBe(false);
    expect(validExpiry(1.5, 2027, now)).toBe(false);
    expect(validExpiry(1, -1, now)).toBe(false);
    expect(validExpiry(5, 2046, now)).toBe(true);
    expect(validExpiry(6, 2046, now)).toBe(false);
    expect(validExpiry(6, 2046, now, 25)).toBe(true);
  });
});

describe('maskPan', () => {
  it('keeps the first 6 and last 4 digits', () => {
    expect(maskPan('4111 1111 1111 1111')).toBe('411111******1111');
    expect(maskPan('378282246310005')).toBe('378282*****0005');
    expect(maskPan('123456789012')).toBe('********9012');
    expect(maskPan('1234')).toBe('****');
    expect(maskPan('not a pan')).toBe('****');
    expect(panDigits('4111-1111')).toBe('41111111');
  });

  it('never shows more than 10 digits of a 13-19 digit PAN', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{13,19}$/), (pan) => {
        const masked = maskPan(pan);
        expect(masked).toHaveLength(pan.length);
        expect(masked.replace(/\*/g, '')).toBe(pan.slice(0, 6) + pan.slice(-4));
      }),
    );
  });
});
