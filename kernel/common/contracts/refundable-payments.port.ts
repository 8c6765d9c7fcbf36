/**
 * What the refunds module needs of a payment another feature owns, and the one thing it asks that
 * feature to do. Bound by the feature that owns the payments (cards binds `CardPaymentRefunds`,
 * links `LinkPaymentRefunds`, pix-automatic `BillingRefunds`); the refunds module never reads
 * their tables.
 */
export type RefundablePaymentKind = 'card_payment' | 'link_payment' | 'billing';

export interface RefundablePayment {
  kind: RefundablePaymentKind;
  /**
   * How the money goes back: `card` (the acquirer's refund), `pix` (an API Pix devolução of the Pix
   * received) or `payout` (a boleto paid by bank clearing: the tenant pays the payer out and
   * confirms it).
   */
  rail: 'card' | 'pix' | 'payout';
  paymentId: string;
  tenantId: string;
  /** What the payment belongs to: its link (`link_payment`), its recurrence (`billing`); null for a card payment. */
  parentId: string | null;
  /**
   * `captured`: money was taken, a refund sends (part of) it back; `authorized`: a
   * pre-authorization never captured, a refund of it is a void; `not_refundable`: neither
   * (refused, failed, voided, still processing).
   */
  state: 'captured' | 'authorized' | 'not_refundable';
  /** The payment's status as its own routes show it (for messages). */
  status: string;
  /** With `not_refundable` for a payment that did take money: why it cannot be refunded here and what to do (the error's message). */
  notRefundableBecause?: string;
  /** What may go back in all: the captured amount (the authorized one for `authorized`). */
  capCents: number;
  /** The acquirer's id of the payment (Adyen's pspReference), when it has one. */
  acquirerTransactionId: string | null;
  /**
   * Rail `pix`: the Pix received (its endToEndId, and when it settled: devoluções are allowed for 90
   * days). Null on a `captured` payment whose Pix the PSP has not reported yet (a boleto PAID_PIX):
   * its refund is taken and waits PENDING until the Pix is known.
   */
  pix: { endToEndId: string; settledAt: Date } | null;
  /**
   * How a link payment's money was shared: what the payer paid (`grossCents`, a passed-on fee
   * included), the platform's fee, and each merchant's part of the rest; a refund reverses the
   * parts in proportion. Null when the payment has no split (a card payment of the API).
   */
  allocation: { grossCents: number; feeCents: number; splits: { merchantId: string; amountCents: number }[] } | null;
}

/** A link's payments as refunds see them: a Pix (or a boleto paid by its Pix QR) received over API Pix. */
export abstract class LinkPaymentRefunds {
  /** The tenant's payment (any tenant's for `null`); with `linkId`, only when it belongs to that link. */
  abstract find(tenantId: string | null, paymentId: string, linkId?: string): Promise<RefundablePayment | null>;
}

/** Pix Automático billings as refunds see them: a billing paid by its cobr's Pix. */
export abstract class BillingRefunds {
  /** The tenant's billing (any tenant's for `null`); with `recurrenceId`, only when it belongs to that recurrence. */
  abstract find(tenantId: string | null, billingId: string, recurrenceId?: string): Promise<RefundablePayment | null>;
  /** The billing a received Pix paid (by its endToEndId), for a devolução the PSP reports on it. */
  abstract findByEndToEndId(endToEndId: string): Promise<RefundablePayment | null>;
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
  /** Held by a dispute (chargeback) that stands, or taken by a MED devolução (Pix). */
  disputedCents: number;
  /** What can still be refunded. */
  refundableCents: number;
}

export abstract class RefundTotals {
  /** Totals of the payments that have any refund or dispute; a payment absent from the map has none. */
  abstract of(paymentIds: string[]): Promise<Map<string, RefundTotal>>;
  /** The same summed per parent (a link, a recurrence): what went back of all its payments. */
  abstract ofParents(parentIds: string[]): Promise<Map<string, RefundTotal>>;
}
