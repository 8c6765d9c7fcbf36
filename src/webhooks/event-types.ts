import { EventDomain } from './event-publisher';

/** The acquiring-domain event types a caller can filter on (`events` of the registration). */
export const ACQUIRING_EVENT_TYPES = [
  'acquiring.financial_transaction',
  'acquiring.payout',
  'acquiring.payment_slip_notification',
  'acquiring.refund',
  'acquiring.dispute',
  'acquiring.med_case',
] as const;
export type AcquiringEventType = (typeof ACQUIRING_EVENT_TYPES)[number];

export const EVENT_DOMAINS: readonly EventDomain[] = ['acquiring', 'pix-automatic'];

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'DEAD', 'CANCELLED', 'NO_ENDPOINT'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const ENDPOINT_STATUSES = ['ACTIVE', 'DISABLED', 'DELETED'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

/** Recurring-debit event types are the spec's `PIX_AUTOMATIC_*` names. */
export function isKnownEventType(domain: EventDomain, type: string): boolean {
  if (domain === 'acquiring') return (ACQUIRING_EVENT_TYPES as readonly string[]).includes(type);
  return /^PIX_AUTOMATIC_[A-Z_]{1,80}$/.test(type);
}
