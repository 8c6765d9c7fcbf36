import type { Tx } from '../tx';

/** A 3DS authentication as the card payment sees it (bound by the three-ds module). */
export interface ThreeDsAuthenticationFacts {
  id: string;
  /** INITIALIZED, SETUP_COMPLETE, AUTHENTICATED, NOT_AUTHENTICATED, UNAVAILABLE, CHALLENGE_PENDING, CHALLENGE_FAILED */
  status: string;
  transStatus: 'Y' | 'N' | 'U' | 'C' | null;
  eci: string | null;
  cavv: string | null;
  dsTransactionId: string;
  amountCents: number;
  cardFingerprint: string | null;
  /** true when the cardholder went through a challenge (a failure is then CHALLENGE_REJECTED) */
  challenged: boolean;
  paymentId: string | null;
}

/**
 * Port: the 3DS results a card payment relies on. Cards never read the three-ds tables; the
 * three-ds module binds this port.
 */
export abstract class ThreeDsResults {
  /** The tenant's authentication by its directory server transaction id, row-locked inside `m`. */
  abstract lockByDsTransactionId(m: Tx, tenantId: string, dsTransactionId: string): Promise<ThreeDsAuthenticationFacts | null>;
  /** Records the payment that used the authentication; false when another payment already did. */
  abstract markUsed(m: Tx, authenticationId: string, paymentId: string): Promise<boolean>;
}
