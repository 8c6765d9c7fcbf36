import { InvalidCardNumber } from '../../../kernel/common/formats/pan';
import { cardBrand, isLuhnValid, normalizePan, panDisplay } from '../../../kernel/common/formats/pan';
import { SANDBOX_DEFAULT_CARD_DESCRIPTION, SANDBOX_TEST_CARDS, sandboxAuthorization } from './sandbox-cards';
import { THREE_DS_TEST_CARDS } from './three-ds-cards';

describe('sandboxAuthorization', () => {
  it.each(['4111111111111111', '4242424242424242', '5555555555554444', '2223003122003222', '378282246310005', '4000000000002701'])(
    '%s is approved in both capture modes',
    (pan) => {
      expect(sandboxAuthorization(pan)).toEqual({ outcome: 'approved', status: 'ACCEPTED' });
      expect(sandboxAuthorization(pan, 'sale')).toEqual({ outcome: 'approved', status: 'ACCEPTED' });
      expect(sandboxAuthorization(pan, 'preauth')).toEqual({ outcome: 'approved', status: 'PREAUTH' });
    },
  );

  it('4000000000000002 is refused by the issuer', () => {
    expect(sandboxAuthorization('4000000000000002')).toEqual({ outcome: 'refused', status: 'AUTH_REJECTED', reason: 'generic_decline' });
    expect(sandboxAuthorization('4000000000000002', 'preauth')).toMatchObject({ status: 'AUTH_REJECTED' });
  });

  it('4000000000009995 is refused for insufficient funds', () => {
    expect(sandboxAuthorization('4000 0000 0000 9995')).toEqual({
      outcome: 'refused',
      status: 'AUTH_REJECTED',
      reason: 'insufficient_funds',
    });
  });

  it('4000000000000119 is a technical failure', () => {
    expect(sandboxAuthorization('4000000000000119', 'preauth')).toEqual({
      outcome: 'failed',
      status: 'FAILED',
      reason: 'processing_error',
      retryable: true,
    });
  });

  it('any other number is approved (pre-authorization friendly)', () => {
    expect(sandboxAuthorization('6011111111111117', 'preauth')).toEqual({ outcome: 'approved', status: 'PREAUTH' });
    expect(SANDBOX_DEFAULT_CARD_DESCRIPTION).toMatch(/PREAUTH/);
  });

  it('rejects input that is not a card number', () => {
    expect(() => sandboxAuthorization('abc')).toThrow(InvalidCardNumber);
  });
});

describe('SANDBOX_TEST_CARDS', () => {
  it('has distinct Luhn-valid numbers, each agreeing with sandboxAuthorization', () => {
    const numbers = SANDBOX_TEST_CARDS.map((c) => c.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const card of SANDBOX_TEST_CARDS) {
      expect(isLuhnValid(card.number)).toBe(true);
      const answer = sandboxAuthorization(card.number);
      expect(answer.outcome).toBe(card.outcome);
      if (answer.outcome === 'approved') expect(card.status).toBe('ACCEPTED or PREAUTH');
      else {
        expect(answer.status).toBe(card.status);
        expect(answer.reason).toBe(card.reason);
      }
      expect(card.description).toMatch(/\.$/);
    }
  });

  it('includes every 3DS test card as approved by the acquirer', () => {
    for (const threeDs of THREE_DS_TEST_CARDS) {
      const row = SANDBOX_TEST_CARDS.find((c) => c.number === threeDs.number);
      expect(row).toMatchObject({ outcome: 'approved', brand: 'visa' });
      expect(row?.description).toContain(threeDs.description);
    }
  });

  it('records brands', () => {
    const brands = Object.fromEntries(SANDBOX_TEST_CARDS.map((c) => [c.number, c.brand]));
    expect(brands['5555555555554444']).toBe('mastercard');
    expect(brands['2223003122003222']).toBe('mastercard');
    expect(brands['378282246310005']).toBe('amex');
    expect(brands['4000000000000002']).toBe('visa');
  });

  it('is frozen', () => {
    expect(Object.isFrozen(SANDBOX_TEST_CARDS)).toBe(true);
  });
});

describe('pan helpers', () => {
  it('normalises and validates', () => {
    expect(normalizePan(' 4111-1111 1111-1111 ')).toBe('4111111111111111');
    expect(() => normalizePan('41111111111')).toThrow(InvalidCardNumber);
    expect(() => normalizePan('41111111111111111111')).toThrow(InvalidCardNumber);
    expect(() => normalizePan(undefined as unknown as string)).toThrow(InvalidCardNumber);
  });

  it('checks Luhn digits', () => {
    expect(isLuhnValid('4111111111111111')).toBe(true);
    expect(isLuhnValid('4111111111111112')).toBe(false);
    expect(isLuhnValid('')).toBe(false);
    expect(isLuhnValid('41x1')).toBe(false);
  });

  it('derives brand and display values', () => {
    expect(cardBrand('4111111111111111')).toBe('visa');
    expect(cardBrand('6011111111111117')).toBe('unknown');
    expect(panDisplay('5555555555554444')).toEqual({ first4: '5555', last4: '4444' });
  });
});
