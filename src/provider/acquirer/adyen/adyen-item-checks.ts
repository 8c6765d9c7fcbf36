import type { AdyenNotificationItem } from '../../../../kernel/common/protocols/adyen';
import { isCents, isDate } from '../report-checks';

/** The references this service gives Adyen: a link payment's or a refund's uuid, a card payment's `pay_…` (a 3DS one's `tds_…`). */
const OUR_REFERENCE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:pay|tds)_[A-Za-z0-9_-]{1,64})$/;
/** Adyen's pspReference: 16 letters or digits. */
const PSP_REFERENCE = /^[0-9A-Za-z]{16}$/;

/**
 * Why an item whose signature is good cannot be applied, or null when every field the service
 * will read of it is sound. Adyen's HMAC covers eight fields and leaves `additionalData` out, so
 * the edge checks what the signature does not: a report that would fail when applied (a
 * defence deadline that is not a date, a reference that is none of ours, a negative amount) is
 * kept as rejected with this reason, never handed on to fail in a handler.
 */
export function adyenItemRejection(i: AdyenNotificationItem): string | null {
  if (!PSP_REFERENCE.test(i.pspReference)) return 'pspReference is not 16 letters or digits';
  if (i.originalReference !== undefined && i.originalReference !== '' && !PSP_REFERENCE.test(i.originalReference))
    return 'originalReference is not 16 letters or digits';
  if (!OUR_REFERENCE.test(i.merchantReference)) return 'merchantReference is not a reference this service gave';
  if (!/^[A-Z_]{1,64}$/.test(i.eventCode)) return 'eventCode is not an Adyen event code';
  if (!isDate(i.eventDate)) return 'eventDate is not a date';
  if (i.amount.currency !== 'BRL') return `amount.currency ${i.amount.currency} is not BRL`;
  if (!isCents(i.amount.value)) return 'amount.value is out of range';
  const d = i.additionalData ?? {};
  if (typeof d !== 'object' || Array.isArray(d)) return 'additionalData is not an object';
  if (d.defensePeriodEndsAt !== undefined && !isDate(d.defensePeriodEndsAt)) return 'additionalData.defensePeriodEndsAt is not a date';
  if (i.reason !== undefined && (typeof i.reason !== 'string' || i.reason.length > 1000)) return 'reason is not a short text';
  return null;
}
