/**
 * Billing state machine (spec: "States and transitions › Billing"). Pure, no I/O.
 *
 * | From                                  | Trigger            | To                 |
 * |---------------------------------------|--------------------|--------------------|
 * | (none, engine or ad hoc create)       | -                  | PENDING_SEND       |
 * | PENDING_SEND                          | SENT_TO_PROVIDER   | SENT               |
 * | PENDING_SEND                          | SEND_FAILED        | SEND_FAILED        |
 * | SEND_FAILED                           | RESEND_SUCCEEDED   | SENT               | (decision)
 * | SENT                                  | PROVIDER_ACTIVATED | ACTIVE             |
 * | ACTIVE                                | PAID               | COMPLETED          |
 * | ACTIVE                                | BANK_REJECTED      | REJECTED           |
 * | ACTIVE                                | NOT_PAID_BY_DUE_DATE | EXPIRED          |
 * | PENDING_SEND, SENT, ACTIVE, SEND_FAILED | RECEIVER_CANCEL  | CANCELLED_RECEIVER |
 * | SENT, ACTIVE                          | PAYER_CANCEL       | CANCELLED_PAYER    |
 *
 * Terminal: COMPLETED, REJECTED, EXPIRED, CANCELLED_RECEIVER, CANCELLED_PAYER. SEND_FAILED is not
 * terminal: the engine retries it.
 *
 * Decisions on what the spec leaves open ("state after a retry: not shown"):
 * - A retry is sent straight from SEND_FAILED; success is SEND_FAILED --RESEND_SUCCEEDED--> SENT.
 *   A failed retry leaves the billing in SEND_FAILED: SEND_FAILED --SEND_FAILED--> is refused with
 *   ALREADY_IN_TARGET_STATE (not a move); the caller only increments `sendAttempts`. We did not
 *   bounce back through PENDING_SEND because that would make a billing being retried look like a
 *   freshly created one and double the writes per attempt.
 * - SEND_FAILED --RECEIVER_CANCEL--> CANCELLED_RECEIVER: a billing the provider never received is
 *   still cancelable ("cancelable state"), and that is how the retry loop is stopped by hand.
 * - PENDING_SEND --PAYER_CANCEL--> is refused: the payer cannot see a billing that was not sent.
 * - A trigger whose destination is the current state (duplicate event, second cancel) is refused
 *   with ALREADY_IN_TARGET_STATE, which callers treat as an idempotent no-op. COMPLETED is
 *   terminal: "a COMPLETED billing cannot be cancelled".
 */
import { defineStateMachine, TransitionResult, TransitionTable } from '../../../kernel/platform/state-machine/state-machine';
import { BankBillingStatus } from '../../provider/bank/bank-provider.port';

/** The nine billing statuses: the bank port's vocabulary, which this module speaks too. */
export const BillingStatus = BankBillingStatus;
export type BillingStatus = BankBillingStatus;

/** The state a new billing (regular or ad hoc) is created in. */
export const INITIAL_BILLING_STATUS: BillingStatus = BillingStatus.PENDING_SEND;

export const BillingTrigger = {
  /** The provider accepted the billing. */
  SENT_TO_PROVIDER: 'SENT_TO_PROVIDER',
  /** Technical error while sending (timeout, 5xx, open breaker). */
  SEND_FAILED: 'SEND_FAILED',
  /** A retry of a SEND_FAILED billing was accepted by the provider. */
  RESEND_SUCCEEDED: 'RESEND_SUCCEEDED',
  /** Provider event BILLING_ACTIVE. */
  PROVIDER_ACTIVATED: 'PROVIDER_ACTIVATED',
  /** Provider event BILLING_COMPLETED. */
  PAID: 'PAID',
  /** Provider event BILLING_REJECTED (payer's bank refused, e.g. no balance). */
  BANK_REJECTED: 'BANK_REJECTED',
  /** Provider event BILLING_EXPIRED. */
  NOT_PAID_BY_DUE_DATE: 'NOT_PAID_BY_DUE_DATE',
  /** DELETE operation of the API, provider event BILLING_CANCELED_RECEIVER, or the recurrence being cancelled. */
  RECEIVER_CANCEL: 'RECEIVER_CANCEL',
  /** Provider event BILLING_CANCELED_PAYER. */
  PAYER_CANCEL: 'PAYER_CANCEL',
} as const;
export type BillingTrigger = (typeof BillingTrigger)[keyof typeof BillingTrigger];

const S = BillingStatus;

const TABLE: TransitionTable<BillingStatus, BillingTrigger> = {
  SENT_TO_PROVIDER: { from: [S.PENDING_SEND], to: S.SENT },
  SEND_FAILED: { from: [S.PENDING_SEND], to: S.SEND_FAILED },
  RESEND_SUCCEEDED: { from: [S.SEND_FAILED], to: S.SENT },
  PROVIDER_ACTIVATED: { from: [S.SENT], to: S.ACTIVE },
  PAID: { from: [S.ACTIVE], to: S.COMPLETED },
  BANK_REJECTED: { from: [S.ACTIVE], to: S.REJECTED },
  NOT_PAID_BY_DUE_DATE: { from: [S.ACTIVE], to: S.EXPIRED },
  RECEIVER_CANCEL: { from: [S.PENDING_SEND, S.SENT, S.ACTIVE, S.SEND_FAILED], to: S.CANCELLED_RECEIVER },
  PAYER_CANCEL: { from: [S.SENT, S.ACTIVE], to: S.CANCELLED_PAYER },
};

export const billingStateMachine = defineStateMachine<BillingStatus, BillingTrigger>('billing', BillingStatus, BillingTrigger, TABLE, [
  S.COMPLETED,
  S.REJECTED,
  S.EXPIRED,
  S.CANCELLED_RECEIVER,
  S.CANCELLED_PAYER,
]);

export type BillingTransitionResult = TransitionResult<BillingStatus, BillingTrigger>;

/** `(from, trigger) -> to`, or a refusal with its reason. */
export function transition(from: BillingStatus, trigger: BillingTrigger): BillingTransitionResult {
  return billingStateMachine.transition(from, trigger);
}

/** States from which `trigger` moves a billing: the `ANY(:allowedFrom)` of the conditional update. */
export function allowedFrom(trigger: BillingTrigger): BillingStatus[] {
  return billingStateMachine.allowedFrom(trigger);
}

/** The state `trigger` leads to (each trigger has exactly one destination). */
export function targetOf(trigger: BillingTrigger): BillingStatus {
  return billingStateMachine.targetOf(trigger);
}

export function isTerminal(state: BillingStatus): boolean {
  return billingStateMachine.isTerminal(state);
}

/** Type guard for a status read from the database or the provider. */
export function isBillingStatus(value: unknown): value is BillingStatus {
  return billingStateMachine.isState(value);
}

/** States the receiver may cancel from (DELETE billing, and cascade when a recurrence is cancelled). */
export function isCancelableByReceiver(state: BillingStatus): boolean {
  return billingStateMachine.allowedFrom(BillingTrigger.RECEIVER_CANCEL).includes(state);
}
