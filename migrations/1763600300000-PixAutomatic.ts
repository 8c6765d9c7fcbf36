import { MigrationInterface, QueryRunner } from 'typeorm';

const RECURRENCE_STATUSES = `'PENDING','ACCEPTED','ACTIVE','REJECTED','EXPIRED','CANCELLED_RECEIVER','CANCELLED_PAYER'`;
const BILLING_STATUSES = `'PENDING_SEND','SENT','ACTIVE','COMPLETED','REJECTED','EXPIRED','CANCELLED_RECEIVER','CANCELLED_PAYER','SEND_FAILED'`;
const PERIODICITIES = `'DAILY','WEEKLY','MONTHLY','BIMONTHLY','QUARTERLY','BIANNUAL','ANNUAL'`;
const DAY_ADJUSTMENTS = `'MOVE_FORWARD_NEXT_BUSINESS_DAY','MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY','KEEP_DUE_DATE'`;

/** Recurrences, billings, skipped cycles and the provider event logs of the recurring Pix debit. */
export class PixAutomatic1763600300000 implements MigrationInterface {
  name = 'PixAutomatic1763600300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pix_recurrences (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        id_tx text NOT NULL,
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN (${RECURRENCE_STATUSES})),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL DEFAULT 'BRL' CHECK (currency = 'BRL'),
        periodicity text NOT NULL CHECK (periodicity IN (${PERIODICITIES})),
        first_due_date date NOT NULL,
        expiration_date date CHECK (expiration_date IS NULL OR expiration_date >= first_due_date),
        day_adjustment text NOT NULL CHECK (day_adjustment IN (${DAY_ADJUSTMENTS})),
        payer_name text NOT NULL,
        payer_tax_id text NOT NULL CHECK (payer_tax_id ~ '^([0-9]{11}|[0-9]{14})$'),
        description text,
        authorization_url text NOT NULL,
        next_cycle int NOT NULL DEFAULT 0 CHECK (next_cycle >= 0),
        next_send_date date,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX pix_recurrences_id_tx_uq ON pix_recurrences (id_tx)`);
    await q.query(`CREATE INDEX pix_recurrences_tenant_list_ix ON pix_recurrences (tenant_id, created_at, id)`);
    await q.query(`CREATE INDEX pix_recurrences_tenant_payer_ix ON pix_recurrences (tenant_id, payer_tax_id)`);
    await q.query(`CREATE INDEX pix_recurrences_engine_ix ON pix_recurrences (next_send_date, id) WHERE status IN ('ACCEPTED','ACTIVE')`);
    await q.query(`CREATE INDEX pix_recurrences_expiry_ix ON pix_recurrences (expiration_date) WHERE status IN ('ACCEPTED','ACTIVE')`);

    await q.query(`
      CREATE TABLE pix_billings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        recurrence_id uuid NOT NULL REFERENCES pix_recurrences(id),
        cycle int CHECK (cycle IS NULL OR cycle >= 0),
        kind text NOT NULL CHECK (kind IN ('REGULAR','AD_HOC')),
        id_tx text NOT NULL,
        status text NOT NULL DEFAULT 'PENDING_SEND' CHECK (status IN (${BILLING_STATUSES})),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL DEFAULT 'BRL' CHECK (currency = 'BRL'),
        due_date date NOT NULL,
        send_attempts int NOT NULL DEFAULT 0 CHECK (send_attempts >= 0),
        next_attempt_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'REGULAR') = (cycle IS NOT NULL))
      )`);
    // One regular billing per recurrence per cycle: a constraint, not a check in code.
    await q.query(`CREATE UNIQUE INDEX pix_billings_cycle_uq ON pix_billings (recurrence_id, cycle) WHERE cycle IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX pix_billings_id_tx_uq ON pix_billings (id_tx)`);
    await q.query(`CREATE INDEX pix_billings_recurrence_ix ON pix_billings (recurrence_id, due_date, created_at)`);
    await q.query(
      `CREATE INDEX pix_billings_to_send_ix ON pix_billings (next_attempt_at) WHERE status IN ('PENDING_SEND','SEND_FAILED') AND next_attempt_at IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE pix_skipped_cycles (
        recurrence_id uuid NOT NULL REFERENCES pix_recurrences(id),
        cycle int NOT NULL CHECK (cycle >= 0),
        due_date date NOT NULL,
        reason text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (recurrence_id, cycle)
      )`);

    // Every outbound event type told to the caller once per idTx (both provider variants, echoes).
    await q.query(`
      CREATE TABLE pix_published_events (
        id_tx text NOT NULL,
        event_type text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (id_tx, event_type)
      )`);

    // Inbound provider events as received, with what was done with each.
    await q.query(`
      CREATE TABLE pix_provider_events (
        id bigserial PRIMARY KEY,
        event_type text NOT NULL,
        id_tx text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('APPLIED','DUPLICATE','LATE','PARKED','UNKNOWN_ENTITY','RECORDED')),
        payload jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        -- Set when the event was parked first (it overtook its predecessor) and applied later.
        replayed boolean NOT NULL DEFAULT false,
        settled_at timestamptz
      )`);
    await q.query(`CREATE INDEX pix_provider_events_parked_ix ON pix_provider_events (id_tx) WHERE outcome = 'PARKED'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pix_provider_events`);
    await q.query(`DROP TABLE pix_published_events`);
    await q.query(`DROP TABLE pix_skipped_cycles`);
    await q.query(`DROP TABLE pix_billings`);
    await q.query(`DROP TABLE pix_recurrences`);
  }
}
