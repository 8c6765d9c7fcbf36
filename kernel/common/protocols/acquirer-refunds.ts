/**
 * Refunds and disputes on the repository's own acquirer protocol (`ACQUIRER_PROVIDER=service`),
 * spoken by the service's `HttpAcquirer` and the sandbox acquirer alike. (On Adyen the same
 * capability is Adyen's own: `POST /payments/{pspReference}/refunds`, `/reversals`, `/cancels`,
 * and its REFUND, REFUND_FAILED, REFUNDED_REVERSED and dispute webhooks.)
 *
 * `POST /v1/card-authorizations/{acquirerTransactionId}/refunds` with {@link CardRefundCall}:
 * - 200 {@link CardRefundAnswer}: the refund is taken (`PENDING`) or already decided. The same
 *   `refundId` again answers the same refund (idempotent), whatever the body.
 * - 404 `card_transaction_not_found`; 409 `not_refundable` (not captured, or voided);
 *   422 `refund_exceeds_captured` (the refunds' sum would pass what was captured).
 *
 * Its outcome arrives as an {@link AcquirerNotification} of type `card_refund.updated` (signed
 * like every other notification), `data` {@link CardRefundNotificationData}. Delivery is at
 * least once and may come out of order: apply it by conditional updates.
 *
 * A chargeback arrives as `card_dispute.updated`, `data` {@link CardDisputeNotificationData}.
 */
export interface CardRefundCall {
  /** Our refund id: the acquirer's idempotency key for this refund. */
  refundId: string;
  amountCents: number;
}

export type CardRefundStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'REVERSED';

export interface CardRefundAnswer {
  refundId: string;
  /** The acquirer's id of this refund. */
  acquirerRefundId: string;
  status: CardRefundStatus;
  /** Why it failed (`refund_declined`, `insufficient_merchant_balance`…), when it did. */
  reason?: string;
}

export interface CardRefundNotificationData {
  /** Our refund id. */
  transactionId: string;
  merchantId: string;
  /** The acquirer's refund id. */
  acquirerId: string;
  /** The card transaction the refund belongs to. */
  acquirerTransactionId: string;
  status: Exclude<CardRefundStatus, 'PENDING'>;
  amountCents: number;
  reason?: string;
}

/** The stages of a card dispute, in the order a scheme plays them (Adyen's dispute event codes). */
export type CardDisputeStage =
  | 'REQUEST_FOR_INFORMATION'
  | 'NOTIFICATION_OF_CHARGEBACK'
  | 'CHARGEBACK'
  | 'CHARGEBACK_REVERSED'
  | 'SECOND_CHARGEBACK'
  | 'PREARBITRATION_WON'
  | 'PREARBITRATION_LOST'
  | 'INFORMATION_SUPPLIED'
  | 'DISPUTE_DEFENSE_PERIOD_ENDED';

export interface CardDisputeNotificationData {
  /** Our transaction id of the disputed payment. */
  transactionId: string;
  merchantId: string;
  /** The acquirer's dispute id (one per payment and case). */
  acquirerId: string;
  acquirerTransactionId: string;
  /** The stage this notification reports (named `status` like every notification's data). */
  status: CardDisputeStage;
  amountCents: number;
  /** The scheme's reason code (e.g. Visa 10.4, Mastercard 4837). */
  reasonCode: string;
  /** ISO date-time by which a defence must be submitted, when the stage has one. */
  defendBy?: string;
  /** ISO date-time the acquirer says the stage happened (orders stages that arrive out of order). */
  at: string;
}
