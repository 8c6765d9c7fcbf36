/**
 * The generic acquirer protocol's 3DS server (`THREE_DS_SERVER_URL`, served by the sandbox under
 * `/sandbox/three-ds`): a transaction as its setup, authenticate and result answers give it. The
 * service's port reads it and the sandbox writes it, both from here.
 */
export interface ThreeDsServerResult {
  referenceId: string;
  /** Y authenticated, N not authenticated, U unavailable, C challenge required */
  transStatus: 'Y' | 'N' | 'U' | 'C';
  eci?: string;
  cavv?: string;
  dsTransactionId: string;
  acsTransactionId?: string;
  challengeUrl?: string;
  /** true once the cardholder went through a challenge */
  challenged: boolean;
}
