import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox bank's own books: what a payer's bank holds about recurrences and billings, and
 * the events it still has to tell the service. It shares nothing with the service's tables.
 */
export class SandboxBank1763600310000 implements MigrationInterface {
  name = 'SandboxBank1763600310000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_bank_recurrences (
        recurrence_id text PRIMARY KEY,
        id_tx text NOT NULL UNIQUE,
        receiver_id text NOT NULL,
        receiver_name text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING','ACCEPTED','ACTIVE','REJECTED','EXPIRED','CANCELLED_RECEIVER','CANCELLED_PAYER')),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        periodicity text NOT NULL,
        first_due_date date NOT NULL,
        expiration_date date,
        day_adjustment text NOT NULL,
        payer_name text NOT NULL,
        payer_tax_id text NOT NULL,
        description text,
        authorization_deadline date NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX sandbox_bank_recurrences_pending_ix ON sandbox_bank_recurrences (authorization_deadline) WHERE status = 'PENDING'`,
    );

    await q.query(`
      CREATE TABLE sandbox_bank_billings (
        id_tx text PRIMARY KEY,
        billing_id text,
        recurrence_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('RECEIVED','ACTIVE','COMPLETED','REJECTED','EXPIRED','CANCELLED_RECEIVER','CANCELLED_PAYER')),
        -- NULL only on a tombstone: a cancel that arrived before the billing itself.
        amount_cents bigint CHECK (amount_cents > 0),
        due_date date,
        CHECK ((amount_cents IS NULL) = (due_date IS NULL)),
        CHECK (amount_cents IS NOT NULL OR status = 'CANCELLED_RECEIVER'),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sandbox_bank_billings_open_ix ON sandbox_bank_billings (due_date) WHERE status IN ('RECEIVED','ACTIVE')`);
    await q.query(`CREATE INDEX sandbox_bank_billings_recurrence_ix ON sandbox_bank_billings (recurrence_id)`);

    await q.query(`
      CREATE TABLE sandbox_bank_events (
        id bigserial PRIMARY KEY,
        event_type text NOT NULL,
        id_tx text NOT NULL,
        payload jsonb NOT NULL,
        delivered_at timestamptz,
        attempts int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sandbox_bank_events_undelivered_ix ON sandbox_bank_events (id) WHERE delivered_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_bank_events`);
    await q.query(`DROP TABLE sandbox_bank_billings`);
    await q.query(`DROP TABLE sandbox_bank_recurrences`);
  }
}
