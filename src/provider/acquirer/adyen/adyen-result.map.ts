import type { AdyenResultCode } from '../../../common/protocols/adyen';
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

/**
 * Every `resultCode` of Checkout v72 (`PaymentResponse.resultCode`), exhaustively: a new code in
 * the file fails the type check here, and test/provider/adyen-result.map.spec.ts walks all of them.
 */
export const RESULT_CODES: Readonly<Record<AdyenResultCode, AdyenVerdict>> = {
  Authorised: { kind: 'approved' },
  Refused: { kind: 'refused' },
  Error: { kind: 'failed', reason: 'processing_error' },
  // cancelled before processing ended (by the shopper or a timeout at Adyen): nothing was charged; a new attempt may pass
  Cancelled: { kind: 'failed', reason: 'processing_error' },
  Pending: { kind: 'pending' },
  Received: { kind: 'pending' },
  IdentifyShopper: { kind: 'authentication_required' },
  ChallengeShopper: { kind: 'authentication_required' },
  RedirectShopper: { kind: 'authentication_required' },
  // partial authorizations are not requested (no `allowPartialAuth`); one that came would not pay the order
  PartiallyAuthorised: { kind: 'refused' },
  // answers of flows the card edge never starts (authentication-only, vouchers, gift-card balance)
  AuthenticationFinished: { kind: 'failed', reason: 'processing_error' },
  AuthenticationNotRequired: { kind: 'failed', reason: 'processing_error' },
  PresentToShopper: { kind: 'pending' },
  Success: { kind: 'failed', reason: 'processing_error' },
};

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
  const verdict = (RESULT_CODES as Record<string, AdyenVerdict | undefined>)[res.resultCode ?? ''] ?? {
    kind: 'failed',
    reason: 'processing_error',
  };
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
