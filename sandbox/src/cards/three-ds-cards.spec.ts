import { InvalidCardNumber } from '../../../kernel/common/formats/pan';
import { isLuhnValid } from '../../../kernel/common/formats/pan';
import { ecisFor, THREE_DS_TEST_CARDS, threeDsOutcome } from './three-ds-cards';

describe('threeDsOutcome', () => {
  it('4000000000002701: frictionless success', () => {
    expect(threeDsOutcome('4000000000002701')).toEqual({
      kind: 'frictionless_success',
      challenge: false,
      transStatus: 'Y',
      eci: '05',
      liabilityShift: true,
      proceedToAuthorization: true,
    });
  });

  it('4000000000002925: frictionless failure', () => {
    expect(threeDsOutcome('4000000000002925')).toEqual({
      kind: 'frictionless_failure',
      challenge: false,
      transStatus: 'N',
      eci: '07',
      liabilityShift: false,
      proceedToAuthorization: false,
    });
  });

  it('4000000000002503: challenge, then authenticated', () => {
    expect(threeDsOutcome('4000 0000 0000 2503')).toEqual({
      kind: 'challenge_success',
      challenge: true,
      transStatus: 'C',
      afterChallenge: { transStatus: 'Y', eci: '05', liabilityShift: true, proceedToAuthorization: true },
    });
  });

  it('4000000000002370: challenge, then not authenticated (CHALLENGE_REJECTED)', () => {
    expect(threeDsOutcome('4000000000002370')).toEqual({
      kind: 'challenge_failure',
      challenge: true,
      transStatus: 'C',
      afterChallenge: {
        transStatus: 'N',
        eci: '07',
        liabilityShift: false,
        proceedToAuthorization: false,
        paymentStatus: 'CHALLENGE_REJECTED',
      },
    });
  });

  it('4000000000002420: authentication not available, proceed without 3DS with ECI 07', () => {
    expect(threeDsOutcome('4000000000002420')).toEqual({
      kind: 'unenrolled',
      challenge: false,
      transStatus: 'U',
      eci: '07',
      liabilityShift: false,
      proceedToAuthorization: true,
    });
  });

  it('4000000000002644: acquirer communication error', () => {
    expect(threeDsOutcome('4000-0000-0000-2644')).toEqual({
      kind: 'error',
      code: 'acquirer_communication_error',
      httpStatus: 500,
      retryable: true,
    });
  });

  it('any other card: frictionless success, with the brand ECI', () => {
    const visa = threeDsOutcome('4111111111111111');
    expect(visa.kind).toBe('frictionless_success');
    expect(visa).toMatchObject({ transStatus: 'Y', eci: '05' });
    expect(threeDsOutcome('5555555555554444')).toMatchObject({ kind: 'frictionless_success', eci: '02' });
    expect(threeDsOutcome('2223003122003222')).toMatchObject({ kind: 'frictionless_success', eci: '02' });
    expect(threeDsOutcome('378282246310005')).toMatchObject({ kind: 'frictionless_success', eci: '05' });
  });

  it('narrows on kind', () => {
    const outcome = threeDsOutcome('4000000000002503');
    const describe = (): string => {
      switch (outcome.kind) {
        case 'challenge_success':
        case 'challenge_failure':
          return `challenge:${outcome.afterChallenge.transStatus}`;
        case 'error':
          return outcome.code;
        default:
          return `${outcome.transStatus}/${outcome.eci}`;
      }
    };
    expect(describe()).toBe('challenge:Y');
  });

  it('rejects input that is not a card number', () => {
    expect(() => threeDsOutcome('not a card')).toThrow(InvalidCardNumber);
  });

  it('ECI values by brand', () => {
    expect(ecisFor('5555555555554444')).toEqual({ authenticated: '02', notAuthenticated: '00' });
    expect(ecisFor('4111111111111111')).toEqual({ authenticated: '05', notAuthenticated: '07' });
  });
});

describe('THREE_DS_TEST_CARDS', () => {
  it('lists six distinct Luhn-valid numbers whose kind matches threeDsOutcome', () => {
    expect(THREE_DS_TEST_CARDS).toHaveLength(6);
    expect(new Set(THREE_DS_TEST_CARDS.map((c) => c.number)).size).toBe(6);
    for (const card of THREE_DS_TEST_CARDS) {
      expect(isLuhnValid(card.number)).toBe(true);
      expect(threeDsOutcome(card.number).kind).toBe(card.kind);
      expect(card.description.length).toBeGreaterThan(10);
    }
  });

  it('is frozen', () => {
    expect(Object.isFrozen(THREE_DS_TEST_CARDS)).toBe(true);
  });
});
