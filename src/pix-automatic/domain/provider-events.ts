/**
 * Provider event types (spec: "Events › Recurring-debit events") and what each one does.
 *
 * The provider emits a RECEIVER_* and a PAYER_* variant of each event for the same idTx; the
 * service applies both (the second is a no-op through ALREADY_IN_TARGET_STATE / the idTx+status
 * dedupe) and tells the caller only the RECEIVER_* name (`receiverEventType`).
 *
 * Mapping decisions:
 * - RECURRENCE_APPROVED moves the status like RECURRENCE_ACCEPTED (PAYER_ACCEPTED); the caller is
 *   told RECEIVER_RECURRENCE_APPROVED, which is for its records.
 * - BILLING_REQUESTED moves nothing (trigger null): the billing is created PENDING_SEND by the
 *   engine before the event; the event is recorded and forwarded.
 * - RECURRENCE_CANCELED is the one pair whose two variants differ in meaning:
 *   PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED ("cancelled state") is taken as the receiver's
 *   cancel (RECEIVER_CANCEL); PIX_AUTOMATIC_PAYER_RECURRENCE_CANCELED is the payer's cancel in the
 *   bank app (PAYER_CANCEL). Both are told to the caller as PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED,
 *   the only RECEIVER_* name for a cancelled recurrence; the new status in the payload tells the
 *   caller who cancelled.
 *   Caveat: if a provider emitted RECEIVER_RECURRENCE_CANCELED also for a payer's cancellation and
 *   it arrived before PAYER_RECURRENCE_CANCELED, the recurrence would end CANCELLED_RECEIVER. The
 *   sandbox provider must emit RECEIVER_RECURRENCE_CANCELED only for receiver-initiated cancels.
 */
import { RecurrenceStatus, RecurrenceTrigger } from './recurrence.state-machine';
import { BillingStatus, BillingTrigger } from './billing.state-machine';

export const RECEIVER_EVENT_TYPES = [
  'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED',
  'PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED',
  'PIX_AUTOMATIC_RECEIVER_RECURRENCE_REJECTED',
  'PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED',
  'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED',
  'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE',
  'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED',
  'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE',
  'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED',
  'PIX_AUTOMATIC_RECEIVER_BILLING_REJECTED',
  'PIX_AUTOMATIC_RECEIVER_BILLING_EXPIRED',
  'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER',
  'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_PAYER',
] as const;
/** An event type the caller is told about (and the only kind it needs to handle). */
export type ReceiverEventType = (typeof RECEIVER_EVENT_TYPES)[number];

export const PAYER_EVENT_TYPES = [
  'PIX_AUTOMATIC_PAYER_RECURRENCE_ACCEPTED',
  'PIX_AUTOMATIC_PAYER_RECURRENCE_APPROVED',
  'PIX_AUTOMATIC_PAYER_RECURRENCE_REJECTED',
  'PIX_AUTOMATIC_PAYER_RECURRENCE_CANCELED',
  'PIX_AUTOMATIC_PAYER_RECURRENCE_EXPIRED',
  'PIX_AUTOMATIC_PAYER_RECURRENCE_EXPIRED_END_DATE',
  'PIX_AUTOMATIC_PAYER_BILLING_REQUESTED',
  'PIX_AUTOMATIC_PAYER_BILLING_ACTIVE',
  'PIX_AUTOMATIC_PAYER_BILLING_COMPLETED',
  'PIX_AUTOMATIC_PAYER_BILLING_REJECTED',
  'PIX_AUTOMATIC_PAYER_BILLING_EXPIRED',
  'PIX_AUTOMATIC_PAYER_BILLING_CANCELED_RECEIVER',
  'PIX_AUTOMATIC_PAYER_BILLING_CANCELED_PAYER',
] as const;
export type PayerEventType = (typeof PAYER_EVENT_TYPES)[number];

export type ProviderEventType = ReceiverEventType | PayerEventType;
export const PROVIDER_EVENT_TYPES: readonly ProviderEventType[] = [...RECEIVER_EVENT_TYPES, ...PAYER_EVENT_TYPES];

export type ProviderEventVariant = 'RECEIVER' | 'PAYER';

export type RecurrenceEventMapping = {
  kind: 'recurrence';
  eventType: ProviderEventType;
  variant: ProviderEventVariant;
  /** null: record (and forward) only, no status change. */
  trigger: RecurrenceTrigger | null;
  /** Status the entity is in once the event is applied; null when the event moves nothing. */
  targetStatus: RecurrenceStatus | null;
  receiverEventType: ReceiverEventType;
};

export type BillingEventMapping = {
  kind: 'billing';
  eventType: ProviderEventType;
  variant: ProviderEventVariant;
  trigger: BillingTrigger | null;
  targetStatus: BillingStatus | null;
  receiverEventType: ReceiverEventType;
};

export type ProviderEventMapping = RecurrenceEventMapping | BillingEventMapping;

type Row<K extends 'recurrence' | 'billing', T, S> = {
  kind: K;
  trigger: T | null;
  targetStatus: S | null;
  receiver: ReceiverEventType;
};
type AnyRow = Row<'recurrence', RecurrenceTrigger, RecurrenceStatus> | Row<'billing', BillingTrigger, BillingStatus>;

const rec = (trigger: RecurrenceTrigger | null, targetStatus: RecurrenceStatus | null, receiver: ReceiverEventType): AnyRow => ({
  kind: 'recurrence',
  trigger,
  targetStatus,
  receiver,
});
const bil = (trigger: BillingTrigger | null, targetStatus: BillingStatus | null, receiver: ReceiverEventType): AnyRow => ({
  kind: 'billing',
  trigger,
  targetStatus,
  receiver,
});

const RT = RecurrenceTrigger;
const RS = RecurrenceStatus;
const BT = BillingTrigger;
const BS = BillingStatus;

/** Written out for all 26 event types so that a reader sees each one's effect at a glance. */
const MAPPINGS: { readonly [E in ProviderEventType]: AnyRow } = {
  PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED: rec(RT.PAYER_ACCEPTED, RS.ACCEPTED, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED'),
  PIX_AUTOMATIC_PAYER_RECURRENCE_ACCEPTED: rec(RT.PAYER_ACCEPTED, RS.ACCEPTED, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED'),
  PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED: rec(RT.PAYER_ACCEPTED, RS.ACCEPTED, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED'),
  PIX_AUTOMATIC_PAYER_RECURRENCE_APPROVED: rec(RT.PAYER_ACCEPTED, RS.ACCEPTED, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_APPROVED'),
  PIX_AUTOMATIC_RECEIVER_RECURRENCE_REJECTED: rec(RT.PAYER_REJECTED, RS.REJECTED, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_REJECTED'),
  PIX_AUTOMATIC_PAYER_RECURRENCE_REJECTED: rec(RT.PAYER_REJECTED, RS.REJECTED, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_REJECTED'),
  PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED: rec(RT.RECEIVER_CANCEL, RS.CANCELLED_RECEIVER, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED'),
  PIX_AUTOMATIC_PAYER_RECURRENCE_CANCELED: rec(RT.PAYER_CANCEL, RS.CANCELLED_PAYER, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_CANCELED'),
  PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED: rec(RT.AUTHORIZATION_EXPIRED, RS.EXPIRED, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED'),
  PIX_AUTOMATIC_PAYER_RECURRENCE_EXPIRED: rec(RT.AUTHORIZATION_EXPIRED, RS.EXPIRED, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED'),
  PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE: rec(
    RT.END_DATE_REACHED,
    RS.EXPIRED,
    'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE',
  ),
  PIX_AUTOMATIC_PAYER_RECURRENCE_EXPIRED_END_DATE: rec(
    RT.END_DATE_REACHED,
    RS.EXPIRED,
    'PIX_AUTOMATIC_RECEIVER_RECURRENCE_EXPIRED_END_DATE',
  ),

  PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED: bil(null, null, 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED'),
  PIX_AUTOMATIC_PAYER_BILLING_REQUESTED: bil(null, null, 'PIX_AUTOMATIC_RECEIVER_BILLING_REQUESTED'),
  PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE: bil(BT.PROVIDER_ACTIVATED, BS.ACTIVE, 'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE'),
  PIX_AUTOMATIC_PAYER_BILLING_ACTIVE: bil(BT.PROVIDER_ACTIVATED, BS.ACTIVE, 'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE'),
  PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED: bil(BT.PAID, BS.COMPLETED, 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED'),
  PIX_AUTOMATIC_PAYER_BILLING_COMPLETED: bil(BT.PAID, BS.COMPLETED, 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED'),
  PIX_AUTOMATIC_RECEIVER_BILLING_REJECTED: bil(BT.BANK_REJECTED, BS.REJECTED, 'PIX_AUTOMATIC_RECEIVER_BILLING_REJECTED'),
  PIX_AUTOMATIC_PAYER_BILLING_REJECTED: bil(BT.BANK_REJECTED, BS.REJECTED, 'PIX_AUTOMATIC_RECEIVER_BILLING_REJECTED'),
  PIX_AUTOMATIC_RECEIVER_BILLING_EXPIRED: bil(BT.NOT_PAID_BY_DUE_DATE, BS.EXPIRED, 'PIX_AUTOMATIC_RECEIVER_BILLING_EXPIRED'),
  PIX_AUTOMATIC_PAYER_BILLING_EXPIRED: bil(BT.NOT_PAID_BY_DUE_DATE, BS.EXPIRED, 'PIX_AUTOMATIC_RECEIVER_BILLING_EXPIRED'),
  PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER: bil(
    BT.RECEIVER_CANCEL,
    BS.CANCELLED_RECEIVER,
    'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER',
  ),
  PIX_AUTOMATIC_PAYER_BILLING_CANCELED_RECEIVER: bil(
    BT.RECEIVER_CANCEL,
    BS.CANCELLED_RECEIVER,
    'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER',
  ),
  PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_PAYER: bil(BT.PAYER_CANCEL, BS.CANCELLED_PAYER, 'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_PAYER'),
  PIX_AUTOMATIC_PAYER_BILLING_CANCELED_PAYER: bil(BT.PAYER_CANCEL, BS.CANCELLED_PAYER, 'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_PAYER'),
};

export function isProviderEventType(value: unknown): value is ProviderEventType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(MAPPINGS, value);
}

export function isReceiverEventType(value: unknown): value is ReceiverEventType {
  return typeof value === 'string' && (RECEIVER_EVENT_TYPES as readonly string[]).includes(value);
}

/** What a provider event does. */
export function mapProviderEvent(eventType: ProviderEventType): ProviderEventMapping {
  const row = MAPPINGS[eventType];
  const variant: ProviderEventVariant = eventType.startsWith('PIX_AUTOMATIC_PAYER_') ? 'PAYER' : 'RECEIVER';
  if (row.kind === 'recurrence') {
    return {
      kind: 'recurrence',
      eventType,
      variant,
      trigger: row.trigger,
      targetStatus: row.targetStatus,
      receiverEventType: row.receiver,
    };
  }
  return { kind: 'billing', eventType, variant, trigger: row.trigger, targetStatus: row.targetStatus, receiverEventType: row.receiver };
}

export type ClassifyProviderEventResult =
  { ok: true; mapping: ProviderEventMapping } | { ok: false; reason: 'UNKNOWN_EVENT_TYPE'; eventType: unknown };

/** {@link mapProviderEvent} for an untrusted string (the inbound provider endpoint). */
export function classifyProviderEvent(eventType: unknown): ClassifyProviderEventResult {
  if (!isProviderEventType(eventType)) return { ok: false, reason: 'UNKNOWN_EVENT_TYPE', eventType };
  return { ok: true, mapping: mapProviderEvent(eventType) };
}
