import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment links: merchants (for splits and fee tables), links with their metrics, payment
 * items (one per attempt), use holds (race-safe maxUses), the link's event history and the
 * e-mail outbox of payment notices.
 */
export class Links1763600400100 implements MigrationInterface {
  name = 'Links1763600400100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE links_merchants (
        id text PRIMARY KEY CHECK (id ~ '^mer_[a-z0-9]{8,40}$'),
        tenant_id uuid NOT NULL REFERENCES tenants (id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        tax_id text CHECK (tax_id IS NULL OR tax_id ~ '^([0-9]{11}|[0-9]{14})$'),
        is_default boolean NOT NULL DEFAULT false,
        fee_table jsonb,
        source text NOT NULL CHECK (source IN ('SANDBOX', 'ADMIN')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX links_merchants_default_uq ON links_merchants (tenant_id) WHERE is_default`);
    await q.query(`CREATE INDEX links_merchants_tenant ON links_merchants (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE links (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenants (id),
        slug text NOT NULL CHECK (slug ~ '^[A-Za-z0-9]{6,32}$'),
        owner_merchant_id text NOT NULL REFERENCES links_merchants (id),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
        description text CHECK (description IS NULL OR length(description) <= 1000),
        amount_cents bigint CHECK (amount_cents IS NULL OR amount_cents > 0),
        min_amount_cents bigint CHECK (min_amount_cents IS NULL OR min_amount_cents > 0),
        max_amount_cents bigint CHECK (max_amount_cents IS NULL OR max_amount_cents > 0),
        payment_methods text[] NOT NULL CHECK (cardinality(payment_methods) > 0 AND payment_methods <@ ARRAY['CARD', 'PIX', 'BOLETO']),
        max_installments int NOT NULL CHECK (max_installments BETWEEN 1 AND 12),
        pass_fee boolean NOT NULL DEFAULT false,
        splits jsonb NOT NULL DEFAULT '[]',
        max_uses int CHECK (max_uses IS NULL OR max_uses > 0),
        expires_at timestamptz,
        notify_email boolean NOT NULL DEFAULT false,
        actor_email text,
        status text NOT NULL CHECK (status IN ('ACTIVE', 'INACTIVE', 'EXPIRED', 'EXHAUSTED')),
        view_count bigint NOT NULL DEFAULT 0 CHECK (view_count >= 0),
        attempt_count int NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
        paid_count int NOT NULL DEFAULT 0 CHECK (paid_count >= 0),
        total_paid_cents bigint NOT NULL DEFAULT 0 CHECK (total_paid_cents >= 0),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (amount_cents IS NULL OR (min_amount_cents IS NULL AND max_amount_cents IS NULL)),
        CHECK (min_amount_cents IS NULL OR max_amount_cents IS NULL OR min_amount_cents <= max_amount_cents),
        CHECK (NOT notify_email OR actor_email IS NOT NULL)
      )`);
    await q.query(`CREATE UNIQUE INDEX links_slug_uq ON links (slug)`);
    await q.query(`CREATE INDEX links_tenant_created ON links (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX links_tenant_status_created ON links (tenant_id, status, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX links_active_expiry ON links (expires_at) WHERE status = 'ACTIVE' AND expires_at IS NOT NULL`);

    await q.query(`
      CREATE TABLE links_payments (
        id uuid PRIMARY KEY,
        link_id uuid NOT NULL REFERENCES links (id),
        tenant_id uuid NOT NULL REFERENCES tenants (id),
        seq int NOT NULL CHECK (seq > 0),
        method text NOT NULL CHECK (method IN ('CARD', 'PIX', 'BOLETO')),
        status text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        fee_cents bigint NOT NULL CHECK (fee_cents >= 0),
        net_cents bigint NOT NULL,
        installments int NOT NULL CHECK (installments BETWEEN 1 AND 12),
        payer jsonb NOT NULL,
        instrument jsonb NOT NULL DEFAULT '{}',
        splits jsonb NOT NULL DEFAULT '[]',
        acquirer_id text,
        reason text,
        paid_at timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (
          (method = 'CARD' AND status IN ('ACCEPTED', 'CAPTURED', 'PREAUTH', 'VOIDED', 'AUTH_REJECTED', 'CHALLENGE_REJECTED', 'SETUP_REJECTED', 'FAILED'))
          OR (method = 'PIX' AND status IN ('PENDING', 'AUTHORIZED', 'SETTLED', 'EXPIRED'))
          OR (method = 'BOLETO' AND status IN ('PENDING', 'PAID', 'PAID_PIX', 'EXPIRED', 'CANCELED', 'FAILED'))
        )
      )`);
    await q.query(`CREATE UNIQUE INDEX links_payments_link_seq_uq ON links_payments (link_id, seq)`);
    await q.query(`CREATE UNIQUE INDEX links_payments_acquirer_uq ON links_payments (method, acquirer_id) WHERE acquirer_id IS NOT NULL`);

    // A use of a link with maxUses held by an attempt in flight (card authorizing, Pix QR or
    // boleto unpaid). Checked and taken under the link's row lock; released when the attempt ends.
    await q.query(`
      CREATE TABLE links_use_holds (
        payment_id uuid PRIMARY KEY,
        link_id uuid NOT NULL REFERENCES links (id),
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX links_use_holds_link ON links_use_holds (link_id, expires_at)`);

    await q.query(`
      CREATE TABLE links_events (
        id bigserial PRIMARY KEY,
        link_id uuid NOT NULL REFERENCES links (id),
        type text NOT NULL,
        payment_id uuid,
        data jsonb NOT NULL DEFAULT '{}',
        occurred_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX links_events_link ON links_events (link_id, id)`);

    await q.query(`
      CREATE TABLE links_email_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants (id),
        payment_id uuid NOT NULL REFERENCES links_payments (id),
        to_address text NOT NULL,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text NOT NULL,
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'SENT', 'DEAD')),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One notice per confirmed payment, however many paid states it goes through.
    await q.query(`CREATE UNIQUE INDEX links_email_outbox_payment_uq ON links_email_outbox (payment_id)`);
    await q.query(`CREATE INDEX links_email_outbox_due ON links_email_outbox (next_attempt_at) WHERE status = 'PENDING'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE links_email_outbox`);
    await q.query(`DROP TABLE links_events`);
    await q.query(`DROP TABLE links_use_holds`);
    await q.query(`DROP TABLE links_payments`);
    await q.query(`DROP TABLE links`);
    await q.query(`DROP TABLE links_merchants`);
  }
}
