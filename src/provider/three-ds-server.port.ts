import { CodedError } from '../../kernel/common/formats/coded-error';
import type { ThreeDsServerResult } from '../../kernel/common/protocols/three-ds-server';
import { registerDomainErrors } from '../../kernel/platform/errors/app-error';

/**
 * Port: the 3DS server (Cardinal/CyberSource-like) that talks to the card schemes' directory
 * servers and the issuers' ACS. Bound, by ACQUIRER_PROVIDER, to the generic protocol's HTTP client
 * of THREE_DS_SERVER_URL (by default the in-process sandbox under /sandbox/three-ds; the 3DS
 * feature's HttpThreeDsServer) or to Adyen's native 3DS2 (acquirer/adyen/adyen-three-ds-server).
 */
export interface ThreeDsSetupRequest {
  merchantDocument: string;
  cardNumber: string;
  /** The initialized amount: a server that authenticates with the payment's data (Adyen's native 3DS2) starts with it. */
  amountCents?: number;
  /** Where the ACS posts the challenge result: a server that fixes it at setup (Adyen's `returnUrl`) takes it here. */
  notificationUrl: string;
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

/** A transaction's state as a 3DS server answers it (the generic protocol's wire type, shared with the sandbox). */
export type { ThreeDsServerResult };

/**
 * A 3DS server's refusal in the spec's terms (the 3DS API answers these codes as they are):
 * merchant_not_found (403), reference_mismatch (400: a reference it does not know) and
 * acquirer_unavailable (500: refused otherwise, unreachable or breaker open).
 */
export class ThreeDsServerError extends CodedError<'merchant_not_found' | 'reference_mismatch' | 'acquirer_unavailable'> {
  constructor(code: ThreeDsServerError['code'], message: string) {
    super(code, message);
  }

  static merchantNotFound(): ThreeDsServerError {
    return new ThreeDsServerError('merchant_not_found', 'The merchant (documentId) is not registered for 3DS with the acquirer');
  }

  static unknownReference(): ThreeDsServerError {
    return new ThreeDsServerError('reference_mismatch', 'The 3DS server does not know this referenceId');
  }

  static unavailable(message = "Communication with the acquirer's 3DS server failed; retry later"): ThreeDsServerError {
    return new ThreeDsServerError('acquirer_unavailable', message);
  }
}
registerDomainErrors(ThreeDsServerError, { merchant_not_found: 403, reference_mismatch: 400, acquirer_unavailable: 500 });

/** The 3DS server (3DS Server + Directory Server + ACS behind one API); its refusals are ThreeDsServerErrors. */
export abstract class ThreeDsServerPort {
  abstract setup(req: ThreeDsSetupRequest): Promise<ThreeDsSetupResult>;
  abstract authenticate(req: ThreeDsAuthenticateRequest): Promise<ThreeDsServerResult>;
  /** The authoritative result of a transaction (after the challenge: the RReq the ACS sent). */
  abstract result(referenceId: string): Promise<ThreeDsServerResult>;
}
