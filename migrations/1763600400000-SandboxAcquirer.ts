import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The simulated acquirer's own store (it stands for an outside party: nothing of the service
 * reads these tables). Card authorizations, Pix charges, boletos, and the notifications it
 * sends back to the service (an outbox with leases, so several replicas deliver each once).
 */
export class SandboxAcquirer1763600400000 implements MigrationInterface {
  name = 'SandboxAcquirer1763600400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_acquirer_card_transactions (
        id text PRIMARY KEY,
        transaction_id text NOT NULL,
        request_hash text NOT NULL,
        merchant_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        captured_cents bigint CHECK (captured_cents IS NULL OR captured_cents > 0),
        installments int NOT NULL CHECK (installments BETWEEN 1 AND 12),
        capture_mode text NOT NULL CHECK (capture_mode IN ('SALE', 'PREAUTH')),
        status text NOT NULL CHECK (status IN ('ACCEPTED', 'PREAUTH', 'CAPTURED', 'VOIDED', 'AUTH_REJECTED', 'FAILED')),
        reason text,
        authorization_code text,
        brand text NOT NULL,
        last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
        business_day date NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX sandbox_acquirer_card_transactions_txn_uq ON sandbox_acquirer_card_transactions (transaction_id)`);

    await q.query(`
      CREATE TABLE sandbox_acquirer_boletos (
        id text PRIMARY KEY,
        transaction_id text NOT NULL,
        request_hash text NOT NULL,
        merchant_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        due_date date NOT NULL,
        payer_name text NOT NULL,
        payer_tax_id text NOT NULL,
        our_number bigint NOT NULL,
        barcode text NOT NULL CHECK (barcode ~ '^[0-9]{44}$'),
        digitable_line text NOT NULL CHECK (digitable_line ~ '^[0-9]{47}$'),
        pix_txid text NOT NULL,
        pix_br_code text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'PAID', 'PAID_PIX', 'EXPIRED', 'CANCELED')),
        paid_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE SEQUENCE sandbox_acquirer_boleto_our_number START 1`);
    await q.query(`CREATE UNIQUE INDEX sandbox_acquirer_boletos_txn_uq ON sandbox_acquirer_boletos (transaction_id)`);
    await q.query(`CREATE UNIQUE INDEX sandbox_acquirer_boletos_our_number_uq ON sandbox_acquirer_boletos (our_number)`);
    await q.query(`CREATE UNIQUE INDEX sandbox_acquirer_boletos_pix_txid_uq ON sandbox_acquirer_boletos (pix_txid)`);
    await q.query(`CREATE INDEX sandbox_acquirer_boletos_pending ON sandbox_acquirer_boletos (due_date) WHERE status = 'PENDING'`);

    await q.query(`
      CREATE TABLE sandbox_acquirer_pix_charges (
        txid text PRIMARY KEY CHECK (txid ~ '^[A-Za-z0-9]{1,25}$'),
        transaction_id text NOT NULL,
        request_hash text NOT NULL,
        merchant_id text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        payer_name text,
        br_code text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'AUTHORIZED', 'SETTLED', 'EXPIRED')),
        expires_at timestamptz NOT NULL,
        paid_at timestamptz,
        settle_at timestamptz,
        settled_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX sandbox_acquirer_pix_charges_txn_uq ON sandbox_acquirer_pix_charges (transaction_id)`);
    await q.query(`CREATE INDEX sandbox_acquirer_pix_pending ON sandbox_acquirer_pix_charges (expires_at) WHERE status = 'PENDING'`);
    await q.query(`CREATE INDEX sandbox_acquirer_pix_authorized ON sandbox_acquirer_pix_charges (settle_at) WHERE status = 'AUTHORIZED'`);

    await q.query(`
      CREATE TABLE sandbox_acquirer_notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        payload jsonb NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX sandbox_acquirer_notifications_due ON sandbox_acquirer_notifications (next_attempt_at) WHERE delivered_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_acquirer_notifications`);
    await q.query(`DROP TABLE sandbox_acquirer_pix_charges`);
    await q.query(`DROP TABLE sandbox_acquirer_boletos`);
    await q.query(`DROP SEQUENCE sandbox_acquirer_boleto_our_number`);
    await q.query(`DROP TABLE sandbox_acquirer_card_transactions`);
  }
}
