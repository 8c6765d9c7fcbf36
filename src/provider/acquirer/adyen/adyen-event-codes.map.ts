import type { CardDisputeStage, CardRefundStatus } from '../../../common/protocols/acquirer-refunds';

/**
 * What each Adyen standard-webhook `eventCode` is for this service, in one table: a refund's
 * outcome (applied to the refund by its own references: `merchantReference` is our refund id,
 * `pspReference` the refund's, `originalReference` the payment's), a dispute stage (applied to the
 * payment's dispute), or the payment's own event (AUTHORISATION, CAPTURE, CANCELLATION… passed on
 * as `card_transaction.updated`, or `boleto.updated` for a boleto).
 *
 * Adyen's quirks kept here: REFUND_FAILED arrives with `success` "true" (the event is the
 * failure); REFUNDED_REVERSED likewise; CANCEL_OR_REFUND is a `/reversals` outcome, a refund
 * when the payment was captured; dispute events carry no `disputeStatus` in Brazil, so the stage
 * is the code itself.
 */
export type AdyenEventMeaning =
  | { kind: 'refund'; status: (success: boolean) => Exclude<CardRefundStatus, 'PENDING'> }
  | { kind: 'dispute'; stage: CardDisputeStage }
  | { kind: 'payment' }
  /** Not about anything this service does (payouts, recurring contracts, manual review, orders): logged, not applied. */
  | { kind: 'other' };

/** Every `eventCode` any notification item of the vendored Webhooks-v1.yaml may carry. */
export const ADYEN_EVENT_CODES = [
  'AUTHENTICATION', 'AUTHORISATION', 'AUTHORISATION_ADJUSTMENT', 'AUTORESCUE', 'CANCELLATION', 'CANCEL_AUTORESCUE',
  'CANCEL_OR_REFUND', 'CAPTURE', 'CAPTURE_FAILED', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'DISPUTE_DEFENSE_PERIOD_ENDED',
  'EXPIRE', 'HANDLED_EXTERNALLY', 'INFORMATION_SUPPLIED', 'ISSUER_COMMENTS', 'ISSUER_RESPONSE_TIMEFRAME_EXPIRED',
  'MANUAL_REVIEW_ACCEPT', 'MANUAL_REVIEW_REJECT', 'NOTIFICATION_OF_CHARGEBACK', 'NOTIFICATION_OF_FRAUD', 'OFFER_CLOSED',
  'ORDER_CLOSED', 'ORDER_OPENED', 'PAIDOUT_REVERSED', 'PAYOUT_DECLINE', 'PAYOUT_EXPIRE', 'PAYOUT_THIRDPARTY', 'POSTPONED_REFUND',
  'PREARBITRATION_LOST', 'PREARBITRATION_OPEN', 'PREARBITRATION_WON', 'RECURRING_CONTRACT', 'REFUND', 'REFUNDED_REVERSED', 'REPORT_AVAILABLE',
  'REFUND_FAILED', 'REFUND_WITH_DATA', 'REQUEST_FOR_INFORMATION', 'SECOND_CHARGEBACK', 'TECHNICAL_CANCEL',
  'VOID_PENDING_REFUND',
] as const; // prettier-ignore
export type AdyenEventCode = (typeof ADYEN_EVENT_CODES)[number];

const refund = (status: (success: boolean) => Exclude<CardRefundStatus, 'PENDING'>): AdyenEventMeaning => ({ kind: 'refund', status });
const dispute = (stage: CardDisputeStage): AdyenEventMeaning => ({ kind: 'dispute', stage });
const PAYMENT: AdyenEventMeaning = { kind: 'payment' };
const OTHER: AdyenEventMeaning = { kind: 'other' };

export const ADYEN_EVENT_MEANINGS: Readonly<Record<AdyenEventCode, AdyenEventMeaning>> = {
  AUTHENTICATION: PAYMENT,
  AUTHORISATION: PAYMENT,
  AUTHORISATION_ADJUSTMENT: PAYMENT,
  AUTORESCUE: OTHER,
  CANCELLATION: PAYMENT,
  CANCEL_AUTORESCUE: OTHER,
  CANCEL_OR_REFUND: refund((ok) => (ok ? 'SUCCEEDED' : 'FAILED')),
  CAPTURE: PAYMENT,
  CAPTURE_FAILED: PAYMENT,
  CHARGEBACK: dispute('CHARGEBACK'),
  CHARGEBACK_REVERSED: dispute('CHARGEBACK_REVERSED'),
  DISPUTE_DEFENSE_PERIOD_ENDED: dispute('DISPUTE_DEFENSE_PERIOD_ENDED'),
  EXPIRE: PAYMENT,
  HANDLED_EXTERNALLY: OTHER,
  INFORMATION_SUPPLIED: dispute('INFORMATION_SUPPLIED'),
  ISSUER_COMMENTS: OTHER,
  ISSUER_RESPONSE_TIMEFRAME_EXPIRED: OTHER,
  MANUAL_REVIEW_ACCEPT: OTHER,
  MANUAL_REVIEW_REJECT: OTHER,
  NOTIFICATION_OF_CHARGEBACK: dispute('NOTIFICATION_OF_CHARGEBACK'),
  NOTIFICATION_OF_FRAUD: OTHER,
  OFFER_CLOSED: PAYMENT,
  ORDER_CLOSED: OTHER,
  ORDER_OPENED: OTHER,
  PAIDOUT_REVERSED: OTHER,
  PAYOUT_DECLINE: OTHER,
  PAYOUT_EXPIRE: OTHER,
  PAYOUT_THIRDPARTY: OTHER,
  // a refund Adyen holds until the merchant's balance covers it: still pending here
  POSTPONED_REFUND: OTHER,
  PREARBITRATION_LOST: dispute('PREARBITRATION_LOST'),
  PREARBITRATION_OPEN: dispute('SECOND_CHARGEBACK'),
  PREARBITRATION_WON: dispute('PREARBITRATION_WON'),
  RECURRING_CONTRACT: OTHER,
  REFUND: refund((ok) => (ok ? 'SUCCEEDED' : 'FAILED')),
  REFUNDED_REVERSED: refund(() => 'REVERSED'),
  REFUND_FAILED: refund(() => 'FAILED'),
  // an unreferenced refund, not one this service asked for
  REFUND_WITH_DATA: OTHER,
  REPORT_AVAILABLE: OTHER,
  REQUEST_FOR_INFORMATION: dispute('REQUEST_FOR_INFORMATION'),
  SECOND_CHARGEBACK: dispute('SECOND_CHARGEBACK'),
  TECHNICAL_CANCEL: PAYMENT,
  VOID_PENDING_REFUND: refund((ok) => (ok ? 'SUCCEEDED' : 'FAILED')),
};

/** The meaning of an event code; a code the vendored file does not list is not ours to apply. */
export function adyenEventMeaning(eventCode: string): AdyenEventMeaning {
  return Object.prototype.hasOwnProperty.call(ADYEN_EVENT_MEANINGS, eventCode) ? ADYEN_EVENT_MEANINGS[eventCode as AdyenEventCode] : OTHER;
}
