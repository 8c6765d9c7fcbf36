import { validateCardInput } from './card-input';

const TODAY = '2026-11-20';
const ok = { cardNumber: '4111 1111-1111 1111', expirationMonth: '12', expirationYear: '2030', securityCode: '123' };
const codes = (input: Record<string, unknown>) => {
  const r = validateCardInput({ ...ok, ...input }, TODAY);
  return r.ok ? [] : r.problems.map((p) => `${p.field}:${p.code}`);
};

describe('validateCardInput', () => {
  it('accepts a valid card and normalises it', () => {
    const r = validateCardInput({ ...ok, nickname: '  Work card  ' }, TODAY);
    expect(r).toEqual({
      ok: true,
      card: { pan: '4111111111111111', brand: 'VISA', expMonth: 12, expYear: 2030, securityCode: '123', nickname: 'Work card' },
    });
  });

  it('reads integer and two-digit expiry values', () => {
    const r = validateCardInput({ ...ok, expirationMonth: 3, expirationYear: '31' }, TODAY);
    expect(r.ok && [r.card.expMonth, r.card.expYear]).toEqual([3, 2031]);
  });

  it('gives brands by BIN with their lengths and security code lengths', () => {
    const amex = validateCardInput({ ...ok, cardNumber: '378282246310005', securityCode: '1234' }, TODAY);
    expect(amex.ok && amex.card.brand).toBe('AMEX');
    expect(codes({ cardNumber: '378282246310005', securityCode: '123' })).toEqual(['securityCode:security_code']);
    const mc = validateCardInput({ ...ok, cardNumber: '2223003122003222' }, TODAY);
    expect(mc.ok && mc.card.brand).toBe('MASTERCARD');
    // Discover-like numbers are not recognised: UNKNOWN, 3 or 4 digit codes.
    const other = validateCardInput({ ...ok, cardNumber: '6011111111111117', securityCode: '1234' }, TODAY);
    expect(other.ok && other.card.brand).toBe('UNKNOWN');
  });

  it.each([
    ['letters', { cardNumber: '4111abcd11111111' }, 'cardNumber:card_number_format'],
    ['11 digits', { cardNumber: '41111111111' }, 'cardNumber:card_number_format'],
    ['a Luhn error', { cardNumber: '4111111111111112' }, 'cardNumber:card_number_check_digit'],
    ['a Visa of 15 digits', { cardNumber: '411111111111116' }, 'cardNumber:card_number_length'],
    ['month 13', { expirationMonth: '13' }, 'expirationMonth:expiration_month'],
    ['month 0', { expirationMonth: '0' }, 'expirationMonth:expiration_month'],
    ['a 3-digit year', { expirationYear: '203' }, 'expirationYear:expiration_year'],
    ['last month', { expirationMonth: '10', expirationYear: '2026' }, 'expirationYear:card_expired'],
    ['21 years ahead', { expirationYear: '2047' }, 'expirationYear:expiration_year'],
    ['a 4-digit Visa code', { securityCode: '1234' }, 'securityCode:security_code'],
    ['a code with letters', { securityCode: '12a' }, 'securityCode:security_code'],
    ['a missing code', { securityCode: undefined }, 'securityCode:security_code'],
    ['a 41-character nickname', { nickname: 'x'.repeat(41) }, 'nickname:nickname'],
    ['a nickname with a card number', { nickname: 'card 4111 1111 1111 1111' }, 'nickname:nickname_digits'],
    ['a nickname with a newline', { nickname: 'a\nb' }, 'nickname:nickname'],
  ])('refuses %s', (_label, input, code) => {
    expect(codes(input)).toEqual([code]);
  });

  it('accepts the current month (valid through its last day) and reports every problem at once', () => {
    expect(codes({ expirationMonth: '11', expirationYear: '2026' })).toEqual([]);
    expect(codes({ cardNumber: '1', expirationMonth: 'x', securityCode: '' })).toEqual([
      'cardNumber:card_number_format',
      'expirationMonth:expiration_month',
      'securityCode:security_code',
    ]);
  });

  it('never echoes the input in a message', () => {
    const r = validateCardInput(
      { cardNumber: '4111111111111112', expirationMonth: '99', expirationYear: '1999', securityCode: '98765' },
      TODAY,
    );
    expect(JSON.stringify(r)).not.toMatch(/4111111111111112|98765/);
  });
});
