import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AdyenNotificationItem } from '../../../../kernel/common/protocols/adyen';
import type { CardCaptureMode } from '../../acquirer.port';
import * as sql from '../../../../kernel/platform/database/sql';
import type { Row, Tx } from '../../../../kernel/platform/database/sql';

/** What an attempt paid with: a card authorization or a boleto issued (`boletobancario`). */
export type AdyenAttemptKind = 'card' | 'boleto';

export interface AdyenAttempt {
  reference: string;
  kind: AdyenAttemptKind;
  /** A card's; null for a boleto. */
  captureMode: CardCaptureMode | null;
  amountCents: number;
  pspReference: string | null;
}

export interface StoredAdyenNotification {
  id: string;
  pspReference: string;
  originalReference: string | null;
  merchantReference: string;
  eventCode: string;
  success: boolean;
  amountCents: number;
  reason: string | null;
  eventDate: string;
  /** The few additionalData fields a dispute needs (reason code, defence deadline). */
  additionalData: Record<string, string>;
}

type AttemptRow = Pick<Row<'adyen_payment_attempts'>, 'reference' | 'kind' | 'capture_mode' | 'amount_cents' | 'psp_reference'>;
type NotificationRow = Pick<
  Row<'adyen_notifications'>,
  'id' | 'psp_reference' | 'original_reference' | 'merchant_reference' | 'event_code' | 'success' | 'amount_cents' | 'reason' | 'event_date'
> & { additional_data: Record<string, string> | null };

// the one place the text columns become the domain's unions
const attempt = (r: AttemptRow): AdyenAttempt => ({
  reference: r.reference,
  kind: r.kind as AdyenAttemptKind,
  captureMode: r.capture_mode as CardCaptureMode | null,
  amountCents: Number(r.amount_cents),
  pspReference: r.psp_reference,
});

const notification = (r: NotificationRow): StoredAdyenNotification => ({
  id: r.id,
  pspReference: r.psp_reference,
  originalReference: r.original_reference,
  merchantReference: r.merchant_reference,
  eventCode: r.event_code,
  success: r.success,
  amountCents: Number(r.amount_cents),
  reason: r.reason,
  eventDate: r.event_date,
  additionalData: r.additional_data ?? {},
});

/** additionalData fields kept (Adyen sends dozens; only an authorization's code and what a dispute needs are stored). */
const KEPT_ADDITIONAL_DATA = ['authCode', 'chargebackReasonCode', 'chargebackSchemeCode', 'defensePeriodEndsAt', 'disputeStatus'];

function keptAdditionalData(d: Record<string, string> | undefined): Record<string, string> | null {
  const kept = Object.fromEntries(KEPT_ADDITIONAL_DATA.filter((k) => typeof d?.[k] === 'string').map((k) => [k, d![k].slice(0, 64)]));
  return Object.keys(kept).length ? kept : null;
}

const ATTEMPT_COLUMNS = 'reference, kind, capture_mode, amount_cents, psp_reference';
const NOTIFICATION_COLUMNS =
  'id::text, psp_reference, original_reference, merchant_reference, event_code, success, amount_cents, reason, event_date, additional_data';

/**
 * What the Adyen adapter remembers: each authorization it sent (so a capture knows the amount
 * and a reconciliation the capture mode), each boleto it asked for (so a webhook about it is
 * read as a boleto's) and each webhook item it accepted, once per
 * (pspReference, eventCode, success) by a unique constraint.
 */
@Injectable()
export class AdyenStore {
  constructor(private readonly ds: DataSource) {}

  /** Recorded before `POST /payments` is sent; a retry of the same reference keeps the first row. */
  async beginAttempt(reference: string, captureMode: CardCaptureMode, amountCents: number): Promise<void> {
    await sql.exec(
      this.ds,
      `INSERT INTO adyen_payment_attempts (reference, capture_mode, amount_cents) VALUES ($1, $2, $3) ON CONFLICT (reference) DO NOTHING`,
      [reference, captureMode, amountCents],
    );
  }

  /** A boleto attempt (no capture mode), recorded before its `POST /payments` like a card's. */
  async beginBoletoAttempt(reference: string, amountCents: number): Promise<void> {
    await sql.exec(
      this.ds,
      `INSERT INTO adyen_payment_attempts (reference, kind, amount_cents) VALUES ($1, 'boleto', $2) ON CONFLICT (reference) DO NOTHING`,
      [reference, amountCents],
    );
  }

  async answered(reference: string, pspReference: string | null, resultCode: string | null): Promise<void> {
    await sql.exec(
      this.ds,
      `UPDATE adyen_payment_attempts SET psp_reference = COALESCE(psp_reference, $2), result_code = $3, answered_at = now() WHERE reference = $1`,
      [reference, pspReference, resultCode],
    );
  }

  async attemptByReference(reference: string): Promise<AdyenAttempt | null> {
    const r = await sql.maybeOne<AttemptRow>(this.ds, `SELECT ${ATTEMPT_COLUMNS} FROM adyen_payment_attempts WHERE reference = $1`, [
      reference,
    ]);
    return r ? attempt(r) : null;
  }

  async attemptByPsp(pspReference: string): Promise<AdyenAttempt | null> {
    const r = await sql.maybeOne<AttemptRow>(this.ds, `SELECT ${ATTEMPT_COLUMNS} FROM adyen_payment_attempts WHERE psp_reference = $1`, [
      pspReference,
    ]);
    return r ? attempt(r) : null;
  }

  /**
   * Keeps the items not seen before, in `tx` (the transaction behind the `[accepted]` Adyen
   * gets); an item with a rejection reason is kept with it and never applied. Answers the ids of
   * the new items to apply (a duplicate delivery adds none).
   */
  async accept(tx: Tx, items: { item: AdyenNotificationItem; rejected: string | null }[]): Promise<string[]> {
    const ids: string[] = [];
    for (const { item: i, rejected } of items) {
      const rows = await sql.rows<{ id: string }>(
        tx,
        `INSERT INTO adyen_notifications
           (psp_reference, original_reference, merchant_reference, event_code, success, amount_cents, currency, reason, event_date,
            additional_data, rejected_reason)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)
         ON CONFLICT ON CONSTRAINT adyen_notifications_once DO NOTHING RETURNING id::text`,
        [
          i.pspReference,
          i.originalReference ?? null,
          i.merchantReference.slice(0, 256),
          i.eventCode,
          i.success === 'true',
          i.amount.value,
          i.amount.currency,
          i.reason?.slice(0, 1000) ?? null,
          i.eventDate.slice(0, 64),
          keptAdditionalData(i.additionalData),
          rejected,
        ],
      );
      if (rows[0] && !rejected) ids.push(rows[0].id);
    }
    return ids;
  }

  /** A kept item not applied yet, to apply in `tx` (null once applied, or never to apply). */
  async pending(tx: Tx, id: string): Promise<StoredAdyenNotification | null> {
    const r = await sql.maybeOne<NotificationRow>(
      tx,
      `SELECT ${NOTIFICATION_COLUMNS} FROM adyen_notifications WHERE id = $1 AND applied_at IS NULL AND rejected_reason IS NULL FOR UPDATE`,
      [id],
    );
    return r ? notification(r) : null;
  }

  /** Marks an item applied, in the transaction that applied it. */
  async applied(tx: Tx, id: string): Promise<void> {
    await sql.exec(tx, `UPDATE adyen_notifications SET applied_at = now() WHERE id = $1 AND applied_at IS NULL`, [id]);
  }

  /** Whether Adyen reported a cancel it took of what it authorized under our reference (a technical cancel, a cancellation). */
  async cancelledByReference(reference: string): Promise<boolean> {
    const r = await sql.maybeOne(
      this.ds,
      `SELECT 1 FROM adyen_notifications WHERE merchant_reference = $1 AND event_code IN ('TECHNICAL_CANCEL', 'CANCELLATION')
          AND success AND rejected_reason IS NULL LIMIT 1`,
      [reference],
    );
    return r !== null;
  }

  /** The AUTHORISATION verdict Adyen sent for our reference, if one came. */
  async authorisationOf(reference: string): Promise<StoredAdyenNotification | null> {
    const r = await sql.maybeOne<NotificationRow>(
      this.ds,
      `SELECT ${NOTIFICATION_COLUMNS} FROM adyen_notifications WHERE merchant_reference = $1 AND event_code = 'AUTHORISATION' AND rejected_reason IS NULL
       ORDER BY success DESC, id LIMIT 1`,
      [reference],
    );
    return r ? notification(r) : null;
  }
}
