/**
 * 3DS outcomes of the sandbox, driven by the card number as with Cardinal Commerce's EMV 3DS
 * 2.2 Visa test cards. Any card number not in the table authenticates frictionlessly.
 *
 * Values follow EMV 3DS: `transStatus` Y (authenticated), N (not authenticated), C (challenge
 * required), U (authentication could not be performed). ECI by brand: Visa, Amex and others
 * 05 authenticated / 07 not authenticated; Mastercard 02 / 00.
 *
 * Simplifications against Cardinal's own table: 4000000000002420 is Cardinal's "unavailable
 * step-up"; the sandbox answers it directly as "authentication not available" (U, ECI 07, no
 * liability shift, the payment may proceed without 3DS) with no challenge page. 4000000000002644
 * ("error on authentication") answers the authenticate call with the spec's 500 "acquirer
 * communication error".
 */
import { cardBrand, normalizePan } from '../../../kernel/common/formats/pan';

export type ThreeDsOutcomeKind =
  'frictionless_success' | 'frictionless_failure' | 'challenge_success' | 'challenge_failure' | 'unenrolled' | 'error';

/** Final result of an authentication (directly, or after the challenge). */
export interface AuthenticatedResult {
  transStatus: 'Y';
  eci: string;
  /** the issuer carries the fraud liability: a CAVV is produced and goes into threeDsData */
  liabilityShift: true;
  proceedToAuthorization: true;
}

export interface NotAuthenticatedResult {
  transStatus: 'N';
  eci: string;
  liabilityShift: false;
  proceedToAuthorization: false;
}

export type ThreeDsOutcome =
  | ({ kind: 'frictionless_success'; challenge: false } & AuthenticatedResult)
  | ({ kind: 'frictionless_failure'; challenge: false } & NotAuthenticatedResult)
  | { kind: 'challenge_success'; challenge: true; transStatus: 'C'; afterChallenge: AuthenticatedResult }
  | {
      kind: 'challenge_failure';
      challenge: true;
      transStatus: 'C';
      /** the card payment item ends CHALLENGE_REJECTED */
      afterChallenge: NotAuthenticatedResult & { paymentStatus: 'CHALLENGE_REJECTED' };
    }
  | {
      kind: 'unenrolled';
      challenge: false;
      transStatus: 'U';
      eci: string;
      liabilityShift: false;
      /** authentication not available: the payment proceeds without 3DS data */
      proceedToAuthorization: true;
    }
  | {
      kind: 'error';
      /** the authenticate call answers 500 (spec: "acquirer communication error") */
      code: 'acquirer_communication_error';
      httpStatus: 500;
      retryable: true;
    };

export interface ThreeDsTestCard {
  number: string;
  kind: ThreeDsOutcomeKind;
  description: string;
}

/** The sandbox's 3DS test cards (Cardinal Commerce EMV 3DS 2.2 Visa numbers), in the guide's order. */
export const THREE_DS_TEST_CARDS: readonly ThreeDsTestCard[] = Object.freeze([
  {
    number: '4000000000002701',
    kind: 'frictionless_success',
    description: 'Frictionless: authenticated (transStatus Y, ECI 05, CAVV returned); pass the data in threeDsData.',
  },
  {
    number: '4000000000002925',
    kind: 'frictionless_failure',
    description: 'Frictionless: not authenticated (transStatus N, ECI 07); do not proceed to the payment.',
  },
  {
    number: '4000000000002503',
    kind: 'challenge_success',
    description: 'Challenge: the ACS page is shown; completing it authenticates (Y, ECI 05).',
  },
  {
    number: '4000000000002370',
    kind: 'challenge_failure',
    description: 'Challenge: the ACS page is shown; the result is not authenticated (N, ECI 07); the payment ends CHALLENGE_REJECTED.',
  },
  {
    number: '4000000000002420',
    kind: 'unenrolled',
    description: 'Authentication not available (transStatus U, ECI 07, no liability shift); the payment may proceed without 3DS.',
  },
  {
    number: '4000000000002644',
    kind: 'error',
    description: 'Error: the authenticate call answers 500 (acquirer communication error); retry later.',
  },
] satisfies ThreeDsTestCard[]);

const BY_NUMBER: ReadonlyMap<string, ThreeDsOutcomeKind> = new Map(THREE_DS_TEST_CARDS.map((c) => [c.number, c.kind]));

/** The 3DS outcome of the sandbox for a card number (spaces and hyphens ignored). */
export function threeDsOutcome(pan: string): ThreeDsOutcome {
  const digits = normalizePan(pan);
  const kind = BY_NUMBER.get(digits) ?? 'frictionless_success';
  const eci = ecisFor(digits);
  switch (kind) {
    case 'frictionless_success':
      return { kind, challenge: false, ...authenticated(eci.authenticated) };
    case 'frictionless_failure':
      return { kind, challenge: false, ...notAuthenticated(eci.notAuthenticated) };
    case 'challenge_success':
      return { kind, challenge: true, transStatus: 'C', afterChallenge: authenticated(eci.authenticated) };
    case 'challenge_failure':
      return {
        kind,
        challenge: true,
        transStatus: 'C',
        afterChallenge: { ...notAuthenticated(eci.notAuthenticated), paymentStatus: 'CHALLENGE_REJECTED' },
      };
    case 'unenrolled':
      return { kind, challenge: false, transStatus: 'U', eci: eci.notAuthenticated, liabilityShift: false, proceedToAuthorization: true };
    case 'error':
      return { kind, code: 'acquirer_communication_error', httpStatus: 500, retryable: true };
  }
}

/** ECI values by brand: Mastercard 02 / 00, everyone else 05 / 07. */
export function ecisFor(pan: string): { authenticated: string; notAuthenticated: string } {
  return cardBrand(pan) === 'mastercard'
    ? { authenticated: '02', notAuthenticated: '00' }
    : { authenticated: '05', notAuthenticated: '07' };
}

function authenticated(eci: string): AuthenticatedResult {
  return { transStatus: 'Y', eci, liabilityShift: true, proceedToAuthorization: true };
}

function notAuthenticated(eci: string): NotAuthenticatedResult {
  return { transStatus: 'N', eci, liabilityShift: false, proceedToAuthorization: false };
}
