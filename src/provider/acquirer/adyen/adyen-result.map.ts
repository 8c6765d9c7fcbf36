import type { AdyenResultCode } from '../../../../kernel/common/protocols/adyen';
import type { CardAuthorizationResult, CardCaptureMode } from '../../acquirer.port';

/** What one `resultCode` of `POST /payments` means for a card authorization. */
export type AdyenVerdict =
  | { kind: 'approved' }
  | { kind: 'refused' }
  | { kind: 'failed'; reason: 'processing_error' }
  /**
   * No verdict in the answer (Adyen answers so for asynchronous methods, not for scheme cards):
   * the attempt fails as `acquirer_unavailable`; its AUTHORISATION webhook is kept for reconciliation.
   */
  | { kind: 'pending' }
  /** Adyen asks for its own 3DS2 (native): the service authenticates first, so it is a failure of the attempt. */
  | { kind: 'authentication_required' };

/** What one `resultCode` means for a boleto bancário (`POST /payments`, `boletobancario`). */
export type AdyenBoletoVerdict = 'issued' | 'not_issued';

/**
 * What one `resultCode` means in the 3DS2 authentication-only steps (`POST /payments` with
 * `authenticationOnly`, then `/payments/details`): the fingerprint step, a challenge, the
 * finished authentication (its `threeDS2Result`), or no usable answer.
 */
export type AdyenThreeDsVerdict = 'fingerprint' | 'challenge' | 'finished' | 'failed';

/** One `resultCode`'s meaning in each flow the card edge starts. */
export interface AdyenResultMeaning {
  card: AdyenVerdict;
  boleto: AdyenBoletoVerdict;
  threeDs: AdyenThreeDsVerdict;
}

const meaning = (
  card: AdyenVerdict,
  boleto: AdyenBoletoVerdict = 'not_issued',
  threeDs: AdyenThreeDsVerdict = 'failed',
): AdyenResultMeaning => ({
  card,
  boleto,
  threeDs,
});
const PROCESSING_ERROR: AdyenVerdict = { kind: 'failed', reason: 'processing_error' };
const PENDING: AdyenVerdict = { kind: 'pending' };
const AUTHENTICATION_REQUIRED: AdyenVerdict = { kind: 'authentication_required' };

/**
 * Every `resultCode` of Checkout v72 (`PaymentResponse.resultCode`), exhaustively, with its
 * meaning in each flow: the one place a result code is read (the card authorization, the boleto,
 * the 3DS steps). A new code in the file fails the type check here, and
 * test/provider/adyen-contract.spec.ts walks all of them against the vendored file.
 *
 * A code can mean different things in different flows: `PresentToShopper` is the boleto's
 * success (the voucher to show the payer) and, for a card, no verdict yet (Adyen never answers a
 * scheme card so); `IdentifyShopper` and `ChallengeShopper` are the 3DS steps' expected answers and,
 * for a card payment, Adyen asking for a 3DS2 we already did (the attempt fails).
 */
export const RESULT_CODES: Readonly<Record<AdyenResultCode, AdyenResultMeaning>> = {
  Authorised: meaning({ kind: 'approved' }),
  Refused: meaning({ kind: 'refused' }),
  Error: meaning(PROCESSING_ERROR),
  // cancelled before processing ended (by the shopper or a timeout at Adyen): nothing was charged; a new attempt may pass
  Cancelled: meaning(PROCESSING_ERROR),
  // no verdict in the answer (asynchronous methods): the card attempt fails as acquirer_unavailable; its AUTHORISATION webhook is kept for reconciliation
  Pending: meaning(PENDING),
  Received: meaning(PENDING),
  IdentifyShopper: meaning(AUTHENTICATION_REQUIRED, 'not_issued', 'fingerprint'),
  ChallengeShopper: meaning(AUTHENTICATION_REQUIRED, 'not_issued', 'challenge'),
  RedirectShopper: meaning(AUTHENTICATION_REQUIRED),
  // partial authorizations are not requested (no `allowPartialAuth`); one that came would not pay the order
  PartiallyAuthorised: meaning({ kind: 'refused' }),
  AuthenticationFinished: meaning(PROCESSING_ERROR, 'not_issued', 'finished'),
  // 3DS not required: an authentication-only call then has nothing to hand the payment, so the step failed
  AuthenticationNotRequired: meaning(PROCESSING_ERROR),
  PresentToShopper: meaning(PENDING, 'issued'),
  // answers of flows the card edge never starts (gift-card balance, orders)
  Success: meaning(PROCESSING_ERROR),
};

const UNKNOWN = meaning(PROCESSING_ERROR);

/** A `resultCode` as Adyen answered it (possibly absent, or one newer than the vendored file) read in one flow; unknown codes are the flow's failure. */
export function resultMeaning(resultCode: string | undefined): AdyenResultMeaning {
  return Object.prototype.hasOwnProperty.call(RESULT_CODES, resultCode ?? '') ? RESULT_CODES[resultCode as AdyenResultCode] : UNKNOWN;
}

/** The spec's card refusal codes a `refusalReason` becomes (any other refusal is `generic_decline`). */
export type CardRefusalCode = 'generic_decline' | 'insufficient_funds' | 'invalid_card' | 'expired_card';

/**
 * Adyen's refusal reasons (Adyen's "Refusal reasons" page: `refusalReason` text and its
 * `refusalReasonCode`) read as the spec's codes. Keys are the text Adyen answers.
 */
export const REFUSAL_REASONS: Readonly<Record<string, CardRefusalCode>> = {
  Refused: 'generic_decline',
  Referral: 'generic_decline',
  'Do Not Honor': 'generic_decline',
  FRAUD: 'generic_decline',
  'FRAUD-CANCELLED': 'generic_decline',
  'Acquirer Fraud': 'generic_decline',
  'Issuer Suspected Fraud': 'generic_decline',
  'Invalid Amount': 'generic_decline',
  '3D Not Authenticated': 'generic_decline',
  'Not enough balance': 'insufficient_funds',
  'Withdrawal amount exceeded': 'insufficient_funds',
  'Withdrawal count exceeded': 'insufficient_funds',
  'Expired Card': 'expired_card',
  'Invalid Card Number': 'invalid_card',
  'Blocked Card': 'invalid_card',
  'Restricted Card': 'invalid_card',
  'Not supported': 'invalid_card',
  'CVC Declined': 'invalid_card',
  'Revocation Of Auth': 'invalid_card',
};

/** Reasons of `Error` results that are the issuer's outage (`Acquirer Error` and the rest are processing errors). */
const ERROR_REASONS_UNAVAILABLE = new Set(['Issuer Unavailable']);

/** A `POST /payments` answer as the port's result. */
export function cardResultOf(
  res: { pspReference?: string; resultCode?: string; refusalReason?: string; additionalData?: Record<string, string> },
  capture: CardCaptureMode,
): CardAuthorizationResult {
  const verdict = resultMeaning(res.resultCode).card;
  const acquirerTransactionId = res.pspReference ?? '';
  switch (verdict.kind) {
    case 'approved': {
      const authCode = res.additionalData?.authCode;
      return {
        acquirerTransactionId,
        status: capture === 'PREAUTH' ? 'PREAUTH' : 'ACCEPTED',
        ...(authCode ? { authorizationCode: authCode } : {}),
      };
    }
    case 'refused':
      return { acquirerTransactionId, status: 'AUTH_REJECTED', reason: REFUSAL_REASONS[res.refusalReason ?? ''] ?? 'generic_decline' };
    case 'failed':
      return {
        acquirerTransactionId,
        status: 'FAILED',
        reason: ERROR_REASONS_UNAVAILABLE.has(res.refusalReason ?? '') ? 'acquirer_unavailable' : verdict.reason,
      };
    case 'authentication_required':
      return { acquirerTransactionId, status: 'FAILED', reason: 'processing_error' };
    case 'pending':
      return { acquirerTransactionId, status: 'FAILED', reason: 'acquirer_unavailable' };
  }
}
