/**
 * The one status table of a card charge, below links and cards (the card-charge capability,
 * card-charges.ts): the spec's card list, plus PROCESSING while the acquirer is asked, and the
 * two 3DS refusals a charge can be born with. Card payments persist these statuses; a link's
 * payment item maps an outcome to its own. Transitions as a pure table. Persisted with a conditional UPDATE whose allowed sources
 * come from `sourcesOf`, so two writers cannot both win and a terminal state never regresses.
 */
import { stateMachineOfTable } from '../../../kernel/platform/state-machine/state-machine';

export const CARD_PAYMENT_STATUSES = [
  'PROCESSING',
  'ACCEPTED',
  'PREAUTH',
  'CAPTURED',
  'VOIDED',
  'AUTH_REJECTED',
  'CHALLENGE_REJECTED',
  'SETUP_REJECTED',
  'FAILED',
  'CAPTURE_FAILED',
  'VOID_FAILED',
] as const;
export type CardPaymentStatus = (typeof CARD_PAYMENT_STATUSES)[number];

/**
 * `capture_failed` and `void_failed`: the acquirer took a capture or a cancel (Adyen answers
 * `received`) and later reported it failed (CAPTURE_FAILED, CANCELLATION with success false).
 */
export const CARD_PAYMENT_TRIGGERS = [
  'approved_sale',
  'approved_preauth',
  'refused',
  'failed',
  'capture',
  'void',
  'capture_failed',
  'void_failed',
] as const;
export type CardPaymentTrigger = (typeof CARD_PAYMENT_TRIGGERS)[number];

/** How a new attempt starts: sent to the acquirer, or refused by 3DS before authorization. */
export const INITIAL_STATUSES: readonly CardPaymentStatus[] = ['PROCESSING', 'CHALLENGE_REJECTED', 'SETUP_REJECTED'];

const TABLE: Readonly<Record<CardPaymentStatus, Partial<Record<CardPaymentTrigger, CardPaymentStatus>>>> = {
  PROCESSING: { approved_sale: 'ACCEPTED', approved_preauth: 'PREAUTH', refused: 'AUTH_REJECTED', failed: 'FAILED' },
  PREAUTH: { capture: 'CAPTURED', void: 'VOIDED' },
  ACCEPTED: { void: 'VOIDED' },
  CAPTURED: { void: 'VOIDED', capture_failed: 'CAPTURE_FAILED' },
  // the cancel did not happen: the money is where it was (authorized or captured); refundable
  VOIDED: { void_failed: 'VOID_FAILED' },
  AUTH_REJECTED: {},
  CHALLENGE_REJECTED: {},
  SETUP_REJECTED: {},
  FAILED: {},
  // nothing was captured: the authorization lapses at the acquirer
  CAPTURE_FAILED: {},
  VOID_FAILED: {},
};

/** The card payment machine on the kernel's API. */
export const CARD_PAYMENT_MACHINE = stateMachineOfTable('card-payment', CARD_PAYMENT_STATUSES, CARD_PAYMENT_TRIGGERS, TABLE);

/** The next status, or null when the trigger is not allowed from `from`. */
export function transition(from: CardPaymentStatus, trigger: CardPaymentTrigger): CardPaymentStatus | null {
  const r = CARD_PAYMENT_MACHINE.transition(from, trigger);
  return r.ok ? r.to : null;
}

/** Every status the trigger may leave from (the `status = ANY(…)` of the conditional UPDATE). */
export function sourcesOf(trigger: CardPaymentTrigger): CardPaymentStatus[] {
  return CARD_PAYMENT_MACHINE.sourcesOf(trigger);
}

export function isTerminal(status: CardPaymentStatus): boolean {
  return CARD_PAYMENT_MACHINE.isTerminal(status);
}

/** Statuses counted as paid (spec: ACCEPTED, CAPTURED). */
export function isPaid(status: CardPaymentStatus): boolean {
  return status === 'ACCEPTED' || status === 'CAPTURED';
}
