import type { CardDisputeStage, CardRefundStatus } from '../../../../kernel/common/protocols/acquirer-refunds';
import type { AdyenEventCode } from '../../../../kernel/common/protocols/adyen';
import type { CardReport } from '../../../../kernel/common/protocols/acquirer-events';

/**
 * What each Adyen standard-webhook `eventCode` is for this service, in one table (the only place an
 * event code is read): a refund's
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
export type AdyenEventMeaning = (
  | { kind: 'refund'; status: (success: boolean) => Exclude<CardRefundStatus, 'PENDING'> }
  | { kind: 'dispute'; stage: CardDisputeStage }
  /**
   * `card`: what a card payment's event reports, in the service's words, when it comes with
   * success and without (null: nothing to apply); `boleto`: for a boleto attempt, the
   * `boleto.updated` status links apply when the event comes with success.
   */
  | { kind: 'payment'; card: CardEventReports; boleto?: BoletoEventStatus }
  /** Not about anything this service does (payouts, recurring contracts, manual review, orders): logged, not applied. */
  | { kind: 'other' }
) & {
  /** money moved back, or did not move: an operator must see it (logged at warn) */
  attention?: true;
};

/** A card event's report with success and without. */
export interface CardEventReports {
  success: CardReport | null;
  failure: CardReport | null;
}

/** A boleto's `boleto.updated` statuses: its AUTHORISATION is the payment cleared, OFFER_CLOSED the due date passed unpaid. */
export type BoletoEventStatus = 'PAID' | 'EXPIRED' | 'CANCELED';

const refund = (status: (success: boolean) => Exclude<CardRefundStatus, 'PENDING'>): AdyenEventMeaning => ({ kind: 'refund', status });
const dispute = (stage: CardDisputeStage): AdyenEventMeaning => ({ kind: 'dispute', stage });
const card = (success: CardReport | null, failure: CardReport | null = null): CardEventReports => ({ success, failure });
const payment = (reports: CardEventReports, boleto?: BoletoEventStatus): AdyenEventMeaning =>
  boleto ? { kind: 'payment', card: reports, boleto } : { kind: 'payment', card: reports };
/** A payment's event nothing here applies (an authentication, an adjustment). */
const PAYMENT = payment(card(null));
const attention = (m: AdyenEventMeaning): AdyenEventMeaning => ({ ...m, attention: true });
const OTHER: AdyenEventMeaning = { kind: 'other' };

export const ADYEN_EVENT_MEANINGS: Readonly<Record<AdyenEventCode, AdyenEventMeaning>> = {
  AUTHENTICATION: PAYMENT,
  AUTHORISATION: payment(card('AUTHORIZED', 'REFUSED'), 'PAID'),
  AUTHORISATION_ADJUSTMENT: PAYMENT,
  AUTORESCUE: OTHER,
  CANCELLATION: payment(card('VOIDED', 'VOID_FAILED'), 'CANCELED'),
  CANCEL_AUTORESCUE: OTHER,
  CANCEL_OR_REFUND: refund((ok) => (ok ? 'SUCCEEDED' : 'FAILED')),
  CAPTURE: payment(card('CAPTURED', 'CAPTURE_FAILED')),
  // Adyen sends it with success true: the event is the failure
  CAPTURE_FAILED: attention(payment(card('CAPTURE_FAILED'))),
  CHARGEBACK: attention(dispute('CHARGEBACK')),
  CHARGEBACK_REVERSED: dispute('CHARGEBACK_REVERSED'),
  DISPUTE_DEFENSE_PERIOD_ENDED: dispute('DISPUTE_DEFENSE_PERIOD_ENDED'),
  EXPIRE: payment(card('EXPIRED')),
  HANDLED_EXTERNALLY: OTHER,
  INFORMATION_SUPPLIED: dispute('INFORMATION_SUPPLIED'),
  ISSUER_COMMENTS: OTHER,
  ISSUER_RESPONSE_TIMEFRAME_EXPIRED: OTHER,
  MANUAL_REVIEW_ACCEPT: OTHER,
  MANUAL_REVIEW_REJECT: OTHER,
  NOTIFICATION_OF_CHARGEBACK: dispute('NOTIFICATION_OF_CHARGEBACK'),
  NOTIFICATION_OF_FRAUD: OTHER,
  OFFER_CLOSED: payment(card(null), 'EXPIRED'),
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
  REFUND_FAILED: attention(refund(() => 'FAILED')),
  // an unreferenced refund, not one this service asked for
  REFUND_WITH_DATA: OTHER,
  REPORT_AVAILABLE: OTHER,
  REQUEST_FOR_INFORMATION: dispute('REQUEST_FOR_INFORMATION'),
  SECOND_CHARGEBACK: dispute('SECOND_CHARGEBACK'),
  // our cancel by reference of an attempt whose answer was lost: whatever it authorized is void
  TECHNICAL_CANCEL: payment(card('VOIDED')),
  VOID_PENDING_REFUND: refund((ok) => (ok ? 'SUCCEEDED' : 'FAILED')),
};

/** The meaning of an event code; a code the vendored file does not list is not ours to apply. */
export function adyenEventMeaning(eventCode: string): AdyenEventMeaning {
  return Object.prototype.hasOwnProperty.call(ADYEN_EVENT_MEANINGS, eventCode) ? ADYEN_EVENT_MEANINGS[eventCode as AdyenEventCode] : OTHER;
}

/** A card payment's event in the service's words (null: nothing to apply). */
export function cardReportOf(eventCode: string, success: boolean): CardReport | null {
  const m = adyenEventMeaning(eventCode);
  return m.kind === 'payment' ? (success ? m.card.success : m.card.failure) : null;
}

/** A boleto attempt's event as the `boleto.updated` status links apply (PAID, EXPIRED, CANCELED); null for anything else (nothing to apply). */
export function boletoStatusOf(eventCode: string, success: boolean): BoletoEventStatus | null {
  const m = adyenEventMeaning(eventCode);
  return success && m.kind === 'payment' && m.boleto ? m.boleto : null;
}
