/**
 * What the refunds module needs of a payment another feature owns, and the one thing it asks that
 * feature to do. Bound by the feature that owns the payments (cards binds `CardPaymentRefunds`);
 * the refunds module never reads their tables.
 */
export interface RefundablePayment {
  kind: 'card_payment';
  paymentId: string;
  tenantId: string;
  /**
   * `captured`: money was taken, a refund sends (part of) it back; `authorized`: a
   * pre-authorization never captured, a refund of it is a void; `not_refundable`: neither
   * (refused, failed, voided, still processing).
   */
  state: 'captured' | 'authorized' | 'not_refundable';
  /** The payment's status as its own routes show it (for messages). */
  status: string;
  /** What may go back in all: the captured amount (the authorized one for `authorized`). */
  capCents: number;
  /** The acquirer's id of the payment (Adyen's pspReference), when it has one. */
  acquirerTransactionId: string | null;
}

export abstract class CardPaymentRefunds {
  /** The tenant's payment (any tenant's when `tenantId` is null: a notification names only the payment). */
  abstract find(tenantId: string | null, paymentId: string): Promise<RefundablePayment | null>;
  /**
   * Cancels a pre-authorization at the acquirer and marks the payment VOIDED (a refund of an
   * uncaptured payment). Throws the owning module's coded error when the acquirer refuses or
   * cannot be reached; the payment is then unchanged.
   */
  abstract cancelAuthorization(tenantId: string, paymentId: string): Promise<void>;
}

/** What has gone back of each payment, for the owners' views (bound by the refunds module). */
export interface RefundTotal {
  /** Refunds pending or done. */
  refundedCents: number;
  /** Held by a dispute (chargeback) that stands. */
  disputedCents: number;
  /** What can still be refunded. */
  refundableCents: number;
}

export abstract class RefundTotals {
  /** Totals of the payments that have any refund or dispute; a payment absent from the map has none. */
  abstract of(paymentIds: string[]): Promise<Map<string, RefundTotal>>;
}
