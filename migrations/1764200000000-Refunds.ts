import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Money going back. `refund_balances` holds, per refunded or disputed payment, what may still go
 * back: the constraint `refunded_cents + disputed_cents <= cap_cents` is the one guard against two
 * refunds (or a refund and a chargeback) returning the same money, whatever the replicas do. A
 * refund reserves its amount when it is created and gives it back when it fails or is reversed.
 * `refunds` are the refunds themselves (one provider call each, its id the provider's idempotency
 * key); `disputes` one per disputed payment, its stage sequence in `stages`. Card payments get
 * two statuses for what the acquirer reports after taking a capture or a cancel: CAPTURE_FAILED,
 * VOID_FAILED.
 */
export class Refunds1764200000000 implements MigrationInterface {
  name = 'Refunds1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE refund_balances (
        payment_id text PRIMARY KEY,
        tenant_id uuid NOT NULL,
        payment_kind text NOT NULL CHECK (payment_kind IN ('card_payment')),
        cap_cents bigint NOT NULL CHECK (cap_cents > 0),
        refunded_cents bigint NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0),
        disputed_cents bigint NOT NULL DEFAULT 0 CHECK (disputed_cents >= 0),
        CONSTRAINT refund_balances_within_cap CHECK (refunded_cents + disputed_cents <= cap_cents)
      )`);
    await q.query(`
      CREATE TABLE refunds (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        payment_id text NOT NULL REFERENCES refund_balances (payment_id),
        payment_kind text NOT NULL CHECK (payment_kind IN ('card_payment')),
        method text NOT NULL CHECK (method IN ('refund', 'void')),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL DEFAULT 'BRL',
        reason text NOT NULL,
        description text,
        status text NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED', 'REVERSED')),
        provider_reference text,
        failure_code text,
        failure_reason text,
        send_attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        succeeded_at timestamptz,
        failed_at timestamptz,
        reversed_at timestamptz
      )`);
    await q.query(`CREATE INDEX refunds_payment_idx ON refunds (payment_id, created_at)`);
    await q.query(`CREATE INDEX refunds_tenant_idx ON refunds (tenant_id, created_at DESC)`);
    await q.query(`CREATE INDEX refunds_to_send_idx ON refunds (next_attempt_at) WHERE next_attempt_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE disputes (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        payment_id text NOT NULL UNIQUE REFERENCES refund_balances (payment_id),
        payment_kind text NOT NULL CHECK (payment_kind IN ('card_payment')),
        provider_reference text NOT NULL,
        stage text NOT NULL,
        status text NOT NULL CHECK (status IN ('INQUIRY', 'NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST')),
        amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
        held_cents bigint NOT NULL DEFAULT 0 CHECK (held_cents >= 0),
        reason_code text,
        defend_by timestamptz,
        stages jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX disputes_tenant_idx ON disputes (tenant_id, created_at DESC)`);
    // a dispute's reason code and defence deadline come in the webhook item's additionalData
    await q.query(`ALTER TABLE adyen_notifications ADD COLUMN additional_data jsonb`);
    // a capture or a cancel the acquirer took and later reported failed
    await q.query(`ALTER TABLE card_payments DROP CONSTRAINT card_payments_status_check`);
    await q.query(`ALTER TABLE card_payments ADD CONSTRAINT card_payments_status_check CHECK (status IN ('PROCESSING', 'ACCEPTED', 'PREAUTH',
      'CAPTURED', 'VOIDED', 'AUTH_REJECTED', 'CHALLENGE_REJECTED', 'SETUP_REJECTED', 'FAILED', 'CAPTURE_FAILED', 'VOID_FAILED'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE card_payments DROP CONSTRAINT card_payments_status_check`);
    await q.query(`ALTER TABLE card_payments ADD CONSTRAINT card_payments_status_check CHECK (status IN ('PROCESSING', 'ACCEPTED', 'PREAUTH',
      'CAPTURED', 'VOIDED', 'AUTH_REJECTED', 'CHALLENGE_REJECTED', 'SETUP_REJECTED', 'FAILED'))`);
    await q.query(`ALTER TABLE adyen_notifications DROP COLUMN additional_data`);
    await q.query(`DROP TABLE disputes`);
    await q.query(`DROP TABLE refunds`);
    await q.query(`DROP TABLE refund_balances`);
  }
}
