/**
 * Recurrence state machine (spec: "States and transitions › Recurrence"). Pure, no I/O.
 *
 * | From              | Trigger                 | To                 |
 * |-------------------|-------------------------|--------------------|
 * | PENDING           | PAYER_ACCEPTED          | ACCEPTED           |
 * | PENDING           | PAYER_REJECTED          | REJECTED           |
 * | PENDING           | AUTHORIZATION_EXPIRED   | EXPIRED            |
 * | PENDING           | RECEIVER_CANCEL         | CANCELLED_RECEIVER | (decision, see below)
 * | ACCEPTED          | FIRST_BILLING_GENERATED | ACTIVE             |
 * | ACCEPTED, ACTIVE  | RECEIVER_CANCEL         | CANCELLED_RECEIVER |
 * | ACCEPTED, ACTIVE  | PAYER_CANCEL            | CANCELLED_PAYER    |
 * | ACCEPTED, ACTIVE  | END_DATE_REACHED        | EXPIRED            |
 *
 * Terminal: REJECTED, EXPIRED, CANCELLED_RECEIVER, CANCELLED_PAYER ("a cancelled recurrence is
 * not reactivated; a new recurrence is required").
 *
 * Decisions on what the spec leaves open:
 * - PENDING --RECEIVER_CANCEL--> CANCELLED_RECEIVER. The spec lists the receiver's cancel from
 *   ACCEPTED and ACTIVE only, but nothing forbids withdrawing a request the payer has not yet
 *   authorized, and leaving it PENDING until the provider's authorization window ends would keep
 *   an unwanted authorization URL live. Stripe likewise lets a merchant cancel a mandate/setup
 *   that is still pending. The service must also cancel the request at the provider; an
 *   ACCEPTED event that arrives afterwards is refused because CANCELLED_RECEIVER is terminal.
 * - PENDING --PAYER_CANCEL--> is refused: before authorizing, the payer's "no" is a rejection
 *   (PAYER_REJECTED), not a cancellation.
 * - ACCEPTED --END_DATE_REACHED--> EXPIRED as well as ACTIVE: the expirationDate can pass before
 *   the first billing was generated (e.g. the payer authorized late on a short term).
 * - The spec's "any --refresh--> status as held by the provider" is an overwrite, not a move of
 *   this machine; it is deliberately not in the table.
 * - A trigger whose destination is the current state (a second cancel, a duplicate event) is
 *   refused with ALREADY_IN_TARGET_STATE, which callers treat as an idempotent no-op.
 */
import { defineStateMachine, TransitionResult, TransitionTable } from '../../../kernel/platform/state-machine/state-machine';

export const RecurrenceStatus = {
  PENDING: 'PENDING',
  ACCEPTED: 'ACCEPTED',
  ACTIVE: 'ACTIVE',
  REJECTED: 'REJECTED',
  EXPIRED: 'EXPIRED',
  CANCELLED_RECEIVER: 'CANCELLED_RECEIVER',
  CANCELLED_PAYER: 'CANCELLED_PAYER',
} as const;
export type RecurrenceStatus = (typeof RecurrenceStatus)[keyof typeof RecurrenceStatus];

export const RecurrenceTrigger = {
  /** Provider events RECURRENCE_ACCEPTED and RECURRENCE_APPROVED. */
  PAYER_ACCEPTED: 'PAYER_ACCEPTED',
  /** Provider event RECURRENCE_REJECTED. */
  PAYER_REJECTED: 'PAYER_REJECTED',
  /** Provider event RECURRENCE_EXPIRED: no authorization within the provider's window. */
  AUTHORIZATION_EXPIRED: 'AUTHORIZATION_EXPIRED',
  /** The billing engine generated the first billing of an ACCEPTED recurrence. */
  FIRST_BILLING_GENERATED: 'FIRST_BILLING_GENERATED',
  /** Cancel operation of the API, or provider event RECEIVER_RECURRENCE_CANCELED. */
  RECEIVER_CANCEL: 'RECEIVER_CANCEL',
  /** Provider event PAYER_RECURRENCE_CANCELED (payer cancelled in the bank app). */
  PAYER_CANCEL: 'PAYER_CANCEL',
  /** Provider event RECURRENCE_EXPIRED_END_DATE, or the engine passing expirationDate. */
  END_DATE_REACHED: 'END_DATE_REACHED',
} as const;
export type RecurrenceTrigger = (typeof RecurrenceTrigger)[keyof typeof RecurrenceTrigger];

const S = RecurrenceStatus;

const TABLE: TransitionTable<RecurrenceStatus, RecurrenceTrigger> = {
  PAYER_ACCEPTED: { from: [S.PENDING], to: S.ACCEPTED },
  PAYER_REJECTED: { from: [S.PENDING], to: S.REJECTED },
  AUTHORIZATION_EXPIRED: { from: [S.PENDING], to: S.EXPIRED },
  FIRST_BILLING_GENERATED: { from: [S.ACCEPTED], to: S.ACTIVE },
  RECEIVER_CANCEL: { from: [S.PENDING, S.ACCEPTED, S.ACTIVE], to: S.CANCELLED_RECEIVER },
  PAYER_CANCEL: { from: [S.ACCEPTED, S.ACTIVE], to: S.CANCELLED_PAYER },
  END_DATE_REACHED: { from: [S.ACCEPTED, S.ACTIVE], to: S.EXPIRED },
};

export const recurrenceStateMachine = defineStateMachine<RecurrenceStatus, RecurrenceTrigger>(
  'recurrence',
  RecurrenceStatus,
  RecurrenceTrigger,
  TABLE,
  [S.REJECTED, S.EXPIRED, S.CANCELLED_RECEIVER, S.CANCELLED_PAYER],
);

export type RecurrenceTransitionResult = TransitionResult<RecurrenceStatus, RecurrenceTrigger>;

/** `(from, trigger) -> to`, or a refusal with its reason. */
export function transition(from: RecurrenceStatus, trigger: RecurrenceTrigger): RecurrenceTransitionResult {
  return recurrenceStateMachine.transition(from, trigger);
}

/** States from which `trigger` moves a recurrence: the `ANY(:allowedFrom)` of the conditional update. */
export function allowedFrom(trigger: RecurrenceTrigger): RecurrenceStatus[] {
  return recurrenceStateMachine.allowedFrom(trigger);
}

/** The state `trigger` leads to (each trigger has exactly one destination). */
export function targetOf(trigger: RecurrenceTrigger): RecurrenceStatus {
  return recurrenceStateMachine.targetOf(trigger);
}

export function isTerminal(state: RecurrenceStatus): boolean {
  return recurrenceStateMachine.isTerminal(state);
}

/** Type guard for a status read from the database or the provider. */
export function isRecurrenceStatus(value: unknown): value is RecurrenceStatus {
  return recurrenceStateMachine.isState(value);
}

/** The spec's precondition for ad hoc billings and for the billing engine: ACCEPTED or ACTIVE. */
export function acceptsBillings(state: RecurrenceStatus): boolean {
  return state === S.ACCEPTED || state === S.ACTIVE;
}
