/**
 * Port: the 3DS server (Cardinal/CyberSource-like) that talks to the card schemes' directory
 * servers and the issuers' ACS. Bound to an HTTP client of THREE_DS_SERVER_URL (by default the
 * in-process sandbox under /sandbox/three-ds), so breakers and timeouts are real.
 */
export interface ThreeDsSetupRequest {
  merchantDocument: string;
  cardNumber: string;
  /** The initialized amount: a server that authenticates with the payment's data (Adyen's native 3DS2) starts with it. */
  amountCents?: number;
}

export interface ThreeDsSetupResult {
  referenceId: string;
  deviceDataCollectionUrl: string;
  /** posted (as JWT) to the device data collection URL by the browser */
  accessToken: string;
}

export interface ThreeDsAuthenticateRequest {
  referenceId: string;
  merchantDocument: string;
  cardNumber: string;
  /** decimal string, e.g. "150.75" */
  amount: string;
  currency: string;
  /** EMV 3DS transType: 01 purchase, 03 check acceptance, 10 account funding, 11 quasi-cash, 28 prepaid activation */
  transType: string;
  /** EMV deviceChannel: 01 app, 02 browser, 03 3RI */
  deviceChannel: string;
  /** where the ACS posts the challenge result (CRes) from the cardholder's browser */
  notificationUrl: string;
  challengeWindowSize?: string;
  browser?: Record<string, unknown>;
}

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

/**
 * The 3DS server (3DS Server + Directory Server + ACS behind one API). Its refusals come back in
 * the spec's terms, as ThreeDsErrors: merchant_not_found (403), reference_mismatch (a reference
 * it does not know) and acquirer_unavailable (500: refused, unreachable or breaker open).
 */
export abstract class ThreeDsServerPort {
  abstract setup(req: ThreeDsSetupRequest): Promise<ThreeDsSetupResult>;
  abstract authenticate(req: ThreeDsAuthenticateRequest): Promise<ThreeDsServerResult>;
  /** The authoritative result of a transaction (after the challenge: the RReq the ACS sent). */
  abstract result(referenceId: string): Promise<ThreeDsServerResult>;
}
