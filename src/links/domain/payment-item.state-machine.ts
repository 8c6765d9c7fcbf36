import { CodedError } from '../../../kernel/common/formats/coded-error';
import { StateMachine, stateMachineOfTable } from '../../../kernel/platform/state-machine/state-machine';

/**
 * Status of a payment item (one attempt on a link), per transaction method.
 *
 * | Method | From                       | Trigger    | To         |
 * |--------|----------------------------|------------|------------|
 * | CARD   | PREAUTH                    | CAPTURE    | CAPTURED   |
 * | CARD   | PREAUTH, ACCEPTED, CAPTURED| VOID       | VOIDED     |
 * | PIX    | PENDING                    | CONFIRM    | AUTHORIZED |
 * | PIX    | AUTHORIZED                 | SETTLE     | SETTLED    |
 * | PIX    | PENDING                    | EXPIRE     | EXPIRED    |
 * | BOLETO | PENDING                    | PAY        | PAID       |
 * | BOLETO | PENDING                    | PAY_BY_PIX | PAID_PIX   |
 * | BOLETO | PENDING                    | EXPIRE     | EXPIRED    |
 * | BOLETO | PENDING                    | CANCEL     | CANCELED   |
 *
 * An item is created directly in one of `INITIAL_STATUSES` (a card attempt gets its
 * immediate answer: ACCEPTED, PREAUTH, AUTH_REJECTED, CHALLENGE_REJECTED, SETUP_REJECTED or
 * FAILED; a boleto is PENDING or FAILED when issuing fails; a Pix QR is PENDING).
 * VOID covers the day-0 reversal of an approved sale or capture as well as the release of a
 * pre-authorization; that it happens within day 0 is the caller's check. The spec leaves the
 * end of PREAUTH by expiry unstated, so there is no such trigger.
 */

export type TransactionMethod = 'CARD' | 'PIX' | 'BOLETO';
export const TRANSACTION_METHODS: readonly TransactionMethod[] = ['CARD', 'PIX', 'BOLETO'];

export const PAYMENT_ITEM_STATUSES = {
  CARD: ['ACCEPTED', 'CAPTURED', 'PREAUTH', 'VOIDED', 'AUTH_REJECTED', 'CHALLENGE_REJECTED', 'SETUP_REJECTED', 'FAILED'],
  PIX: ['PENDING', 'AUTHORIZED', 'SETTLED', 'EXPIRED'],
  BOLETO: ['PENDING', 'PAID', 'PAID_PIX', 'EXPIRED', 'CANCELED', 'FAILED'],
} as const;

export const PAYMENT_ITEM_TRIGGERS = {
  CARD: ['CAPTURE', 'VOID'],
  PIX: ['CONFIRM', 'SETTLE', 'EXPIRE'],
  BOLETO: ['PAY', 'PAY_BY_PIX', 'EXPIRE', 'CANCEL'],
} as const;

export type StatusOf<M extends TransactionMethod> = (typeof PAYMENT_ITEM_STATUSES)[M][number];
export type TriggerOf<M extends TransactionMethod> = (typeof PAYMENT_ITEM_TRIGGERS)[M][number];
export type CardStatus = StatusOf<'CARD'>;
export type PixStatus = StatusOf<'PIX'>;
export type BoletoStatus = StatusOf<'BOLETO'>;
export type PaymentItemStatus = CardStatus | PixStatus | BoletoStatus;
export type PaymentItemTrigger = TriggerOf<TransactionMethod>;

type Table<M extends TransactionMethod> = Readonly<Record<StatusOf<M>, Readonly<Partial<Record<TriggerOf<M>, StatusOf<M>>>>>>;

export const PAYMENT_ITEM_TRANSITIONS: { readonly [M in TransactionMethod]: Table<M> } = deepFreeze({
  CARD: {
    ACCEPTED: { VOID: 'VOIDED' },
    CAPTURED: { VOID: 'VOIDED' },
    PREAUTH: { CAPTURE: 'CAPTURED', VOID: 'VOIDED' },
    VOIDED: {},
    AUTH_REJECTED: {},
    CHALLENGE_REJECTED: {},
    SETUP_REJECTED: {},
    FAILED: {},
  },
  PIX: {
    PENDING: { CONFIRM: 'AUTHORIZED', EXPIRE: 'EXPIRED' },
    AUTHORIZED: { SETTLE: 'SETTLED' },
    SETTLED: {},
    EXPIRED: {},
  },
  BOLETO: {
    PENDING: { PAY: 'PAID', PAY_BY_PIX: 'PAID_PIX', EXPIRE: 'EXPIRED', CANCEL: 'CANCELED' },
    PAID: {},
    PAID_PIX: {},
    EXPIRED: {},
    CANCELED: {},
    FAILED: {},
  },
});

/** Statuses an item may be created in. */
export const INITIAL_STATUSES: { readonly [M in TransactionMethod]: readonly StatusOf<M>[] } = deepFreeze({
  CARD: ['ACCEPTED', 'PREAUTH', 'AUTH_REJECTED', 'CHALLENGE_REJECTED', 'SETUP_REJECTED', 'FAILED'],
  PIX: ['PENDING'],
  BOLETO: ['PENDING', 'FAILED'],
});

/** Statuses counted as paid (paidCount, totalPaid), whatever the method. */
export const PAID_STATUSES: readonly PaymentItemStatus[] = Object.freeze([
  'ACCEPTED',
  'CAPTURED',
  'PAID',
  'PAID_PIX',
  'AUTHORIZED',
  'SETTLED',
]);

export type PaymentItemStateErrorCode = 'invalid_transition' | 'unknown_status';

export class PaymentItemStateError extends CodedError<PaymentItemStateErrorCode> {
  constructor(code: PaymentItemStateErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

export function isPaid(status: string): boolean {
  return (PAID_STATUSES as readonly string[]).includes(status);
}

/** True when `status` is one of the method's statuses. */
export function isStatusOf<M extends TransactionMethod>(method: M, status: string): status is StatusOf<M> {
  return TRANSACTION_METHODS.includes(method) && (PAYMENT_ITEM_STATUSES[method] as readonly string[]).includes(status);
}

export function isInitialStatus<M extends TransactionMethod>(method: M, status: string): boolean {
  return TRANSACTION_METHODS.includes(method) && (INITIAL_STATUSES[method] as readonly string[]).includes(status);
}

/** Checks the status an item is created in. @throws PaymentItemStateError unknown_status */
export function initialStatus<M extends TransactionMethod>(method: M, status: string): StatusOf<M> {
  if (!isInitialStatus(method, status)) {
    throw new PaymentItemStateError('unknown_status', `A ${method} item cannot start in ${status}`, { method, status });
  }
  return status as StatusOf<M>;
}

/** One machine of the kernel's API per method (a card item, a Pix item, a boleto item). */
export const PAYMENT_ITEM_MACHINES = {
  CARD: stateMachineOfTable('payment-item.CARD', PAYMENT_ITEM_STATUSES.CARD, PAYMENT_ITEM_TRIGGERS.CARD, PAYMENT_ITEM_TRANSITIONS.CARD),
  PIX: stateMachineOfTable('payment-item.PIX', PAYMENT_ITEM_STATUSES.PIX, PAYMENT_ITEM_TRIGGERS.PIX, PAYMENT_ITEM_TRANSITIONS.PIX),
  BOLETO: stateMachineOfTable(
    'payment-item.BOLETO',
    PAYMENT_ITEM_STATUSES.BOLETO,
    PAYMENT_ITEM_TRIGGERS.BOLETO,
    PAYMENT_ITEM_TRANSITIONS.BOLETO,
  ),
} as const;

function machineOf<M extends TransactionMethod>(method: M): StateMachine<StatusOf<M>, TriggerOf<M>> | null {
  return TRANSACTION_METHODS.includes(method)
    ? (PAYMENT_ITEM_MACHINES[method] as unknown as StateMachine<StatusOf<M>, TriggerOf<M>>)
    : null;
}

/** The next status, or null when the trigger does not apply (or method/status/trigger are unknown). */
export function nextItemStatus<M extends TransactionMethod>(method: M, from: StatusOf<M>, trigger: TriggerOf<M>): StatusOf<M> | null {
  const m = machineOf(method);
  if (!m || !m.isState(from) || !m.isTrigger(trigger)) return null;
  const r = m.transition(from, trigger);
  return r.ok ? r.to : null;
}

/** The next status. @throws PaymentItemStateError invalid_transition */
export function transition<M extends TransactionMethod>(method: M, from: StatusOf<M>, trigger: TriggerOf<M>): StatusOf<M> {
  const to = nextItemStatus(method, from, trigger);
  if (to === null) {
    throw new PaymentItemStateError('invalid_transition', `A ${method} item in ${from} cannot take ${trigger}`, { method, from, trigger });
  }
  return to;
}

/** Statuses of `method` from which `trigger` is allowed (for the conditional UPDATE). */
export function allowedFrom<M extends TransactionMethod>(method: M, trigger: TriggerOf<M>): StatusOf<M>[] {
  const m = machineOf(method);
  return m && m.isTrigger(trigger) ? m.sourcesOf(trigger) : [];
}

/** True when no trigger leaves `status`. */
export function isTerminal<M extends TransactionMethod>(method: M, status: StatusOf<M>): boolean {
  return machineOf(method)?.isTerminal(status) ?? true;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
