import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CardDisputeNotificationData, CardRefundNotificationData } from './acquirer-refunds';

/**
 * A status notification from the acquirer, POSTed to `/provider/acquirer-events`.
 *
 * Headers: `X-Acquirer-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(ACQUIRER_EVENTS_SECRET,
 * "<t>.<raw body>")>`. The receiver checks the HMAC over the exact bytes received and refuses
 * timestamps outside the tolerance window (replays). Delivery is at least once: consumers
 * apply them by conditional updates, so a repeat changes nothing.
 */
export interface AcquirerNotification {
  eventId: string;
  type: 'pix_charge.updated' | 'boleto.updated' | 'card_transaction.updated' | 'card_refund.updated' | 'card_dispute.updated';
  occurredAt: string;
  /** `card_refund.updated` and `card_dispute.updated` carry the shapes of `acquirer-refunds.ts`. */
  data: AcquirerNotificationData | CardRefundNotificationData | CardDisputeNotificationData;
}

/**
 * What the acquirer reports of a card payment, in the service's words (the `status` of a
 * `card_transaction.updated`): the generic protocol sends them as they are; each other protocol's
 * adapter turns its own codes into them at the edge (Adyen's: `adyen-event-codes.map.ts`).
 */
export const CARD_REPORTS = [
  'ACCEPTED',
  'PREAUTH',
  'AUTHORIZED',
  'REFUSED',
  'CAPTURED',
  'CAPTURE_FAILED',
  'VOIDED',
  'VOID_FAILED',
  'EXPIRED',
] as const;
export type CardReport = (typeof CARD_REPORTS)[number];

export interface AcquirerNotificationData {
  /** Our transaction id, given when the charge was created. */
  transactionId: string;
  merchantId: string;
  /** The acquirer's id: Pix txid, boleto id or card transaction id. */
  acquirerId: string;
  status: string;
  amountCents: number;
  paidAt?: string;
  settledAt?: string;
  /** Boleto paid through its Pix QR (PAID_PIX) or by bank clearing (PAID). */
  paidVia?: 'BANK' | 'PIX';
}

export const ACQUIRER_SIGNATURE_HEADER = 'x-acquirer-signature';

export function signAcquirerEvent(secret: string, timestamp: number, rawBody: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

export function verifyAcquirerEvent(
  secret: string,
  header: string | undefined,
  rawBody: string,
  nowSeconds: number,
  toleranceSeconds: number,
): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing signature header' };
  const parts = Object.fromEntries(
    header.split(',').map((p) => {
      const i = p.indexOf('=');
      return [p.slice(0, i).trim(), p.slice(i + 1).trim()];
    }),
  );
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return { ok: false, reason: 'malformed signature header' };
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return { ok: false, reason: 'timestamp outside the tolerance window' };
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? { ok: true } : { ok: false, reason: 'signature mismatch' };
}
