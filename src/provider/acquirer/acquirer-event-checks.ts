import type { AcquirerNotification } from '../../../kernel/common/protocols/acquirer-events';
import type { CardDisputeStage } from '../../../kernel/common/protocols/acquirer-refunds';
import { isCents, isDate } from './report-checks';

/** The notifications the generic protocol sends (acquirer-events.ts in common/protocols). */
const TYPES: ReadonlySet<string> = new Set<AcquirerNotification['type']>([
  'pix_charge.updated',
  'boleto.updated',
  'card_transaction.updated',
  'card_refund.updated',
  'card_dispute.updated',
]);
const REFUND_STATUSES: ReadonlySet<string> = new Set(['SUCCEEDED', 'FAILED', 'REVERSED']);
/** Every stage, by a total record: a stage added to the protocol fails to compile here until it is checked. */
const DISPUTE_STAGES: Record<CardDisputeStage, true> = {
  REQUEST_FOR_INFORMATION: true,
  NOTIFICATION_OF_CHARGEBACK: true,
  CHARGEBACK: true,
  CHARGEBACK_REVERSED: true,
  SECOND_CHARGEBACK: true,
  PREARBITRATION_WON: true,
  PREARBITRATION_LOST: true,
  INFORMATION_SUPPLIED: true,
  DISPUTE_DEFENSE_PERIOD_ENDED: true,
};
/** An id either side gave: printable, no spaces, short. */
const ID = /^[\x21-\x7e]{1,128}$/;
const STATUS = /^[A-Za-z0-9_:.-]{1,64}$/;

/** The eventId a notification is kept under (unique: a redelivery adds nothing); one that fails is no notification at all (400). */
export const isAcquirerEventId = (id: unknown): id is string => typeof id === 'string' && ID.test(id);

const text = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;

/**
 * Why a signed notification cannot be applied, or null when every field a subscriber will read
 * of it is sound (its type, dates, amount and ids; a refund's status, a dispute's stage, reason
 * code and dates). One that fails is kept as rejected with this reason and never handed to a
 * subscriber, instead of failing there on every retry.
 */
export function acquirerEventRejection(e: AcquirerNotification): string | null {
  if (!TYPES.has(e.type)) return `type ${String(e.type).slice(0, 40)} is not an acquirer notification`;
  if (!isDate(e.occurredAt)) return 'occurredAt is not a date';
  const d = e.data as unknown as Record<string, unknown>;
  if (!d || typeof d !== 'object' || Array.isArray(d)) return 'data is not an object';
  if (typeof d.transactionId !== 'string' || !ID.test(d.transactionId)) return 'data.transactionId is not an id';
  if (typeof d.acquirerId !== 'string' || !ID.test(d.acquirerId)) return 'data.acquirerId is not an id';
  if (d.merchantId !== undefined && !text(d.merchantId, 128)) return 'data.merchantId is not a short text';
  if (typeof d.status !== 'string' || !STATUS.test(d.status)) return 'data.status is not a status';
  if (!isCents(d.amountCents)) return 'data.amountCents is not an amount in centavos';
  for (const k of ['paidAt', 'settledAt', 'defendBy'] as const) if (d[k] !== undefined && !isDate(d[k])) return `data.${k} is not a date`;
  if (d.paidVia !== undefined && d.paidVia !== 'BANK' && d.paidVia !== 'PIX') return 'data.paidVia is neither BANK nor PIX';
  if (e.type === 'card_refund.updated') {
    if (!REFUND_STATUSES.has(d.status)) return `data.status ${d.status} is not a refund's outcome`;
    if (typeof d.acquirerTransactionId !== 'string' || !ID.test(d.acquirerTransactionId)) return 'data.acquirerTransactionId is not an id';
    if (d.reason !== undefined && !text(d.reason, 1000)) return 'data.reason is not a short text';
  }
  if (e.type === 'card_dispute.updated') {
    if (!Object.hasOwn(DISPUTE_STAGES, d.status)) return `data.status ${d.status} is not a dispute stage`;
    if (typeof d.acquirerTransactionId !== 'string' || !ID.test(d.acquirerTransactionId)) return 'data.acquirerTransactionId is not an id';
    if (!text(d.reasonCode, 64)) return 'data.reasonCode is not a short text';
    if (d.at !== undefined && d.at !== '' && !isDate(d.at)) return 'data.at is not a date';
  }
  return null;
}
