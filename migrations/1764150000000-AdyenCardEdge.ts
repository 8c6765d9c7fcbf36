import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The card edge on Adyen Checkout v72. The service side keeps each authorization it sent
 * (reference → capture mode, amount, pspReference) and every webhook item it accepted, applied
 * once per (pspReference, eventCode, success). The sandbox's Adyen face keeps its outbox of
 * webhooks to send, and the pspReference of each card transaction it answered.
 */
export class AdyenCardEdge1764150000000 implements MigrationInterface {
  name = 'AdyenCardEdge1764150000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE adyen_payment_attempts (
        reference text PRIMARY KEY,
        capture_mode text NOT NULL CHECK (capture_mode IN ('SALE', 'PREAUTH')),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        psp_reference text,
        result_code text,
        created_at timestamptz NOT NULL DEFAULT now(),
        answered_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX adyen_payment_attempts_psp_uq ON adyen_payment_attempts (psp_reference)`);
    await q.query(`
      CREATE TABLE adyen_notifications (
        id bigserial PRIMARY KEY,
        psp_reference text NOT NULL,
        original_reference text,
        merchant_reference text NOT NULL,
        event_code text NOT NULL,
        success boolean NOT NULL,
        amount_cents bigint NOT NULL,
        currency text NOT NULL,
        reason text,
        event_date text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz,
        CONSTRAINT adyen_notifications_once UNIQUE (psp_reference, event_code, success)
      )`);
    await q.query(`CREATE INDEX adyen_notifications_reference_ix ON adyen_notifications (merchant_reference, event_code)`);
    await q.query(`CREATE INDEX adyen_notifications_pending_ix ON adyen_notifications (id) WHERE applied_at IS NULL`);
    await q.query(`
      CREATE TABLE sandbox_adyen_webhooks (
        id uuid PRIMARY KEY,
        item jsonb NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sandbox_adyen_webhooks_due_ix ON sandbox_adyen_webhooks (next_attempt_at) WHERE delivered_at IS NULL`);
    await q.query(`ALTER TABLE sandbox_acquirer_card_transactions ADD COLUMN psp_reference text, ADD COLUMN merchant_reference text`);
    await q.query(`CREATE UNIQUE INDEX sandbox_acquirer_card_transactions_psp_uq ON sandbox_acquirer_card_transactions (psp_reference)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_acquirer_card_transactions DROP COLUMN psp_reference, DROP COLUMN merchant_reference`);
    await q.query(`DROP TABLE sandbox_adyen_webhooks`);
    await q.query(`DROP TABLE adyen_notifications`);
    await q.query(`DROP TABLE adyen_payment_attempts`);
  }
}
