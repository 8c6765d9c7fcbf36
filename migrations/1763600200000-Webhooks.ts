import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks: one endpoint per tenant and domain, the outbox of events, one delivery per
 * (event, endpoint) plus replays, and every attempt. See docs/decisions/webhooks.md.
 */
export class Webhooks1763600200000 implements MigrationInterface {
  name = 'Webhooks1763600200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        domain text NOT NULL CHECK (domain IN ('acquiring', 'pix-automatic')),
        url text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
        events text[] NULL CHECK (events IS NULL OR cardinality(events) > 0),
        status text NOT NULL CHECK (status IN ('ACTIVE', 'DISABLED', 'DELETED')),
        disabled_reason text NULL,
        key_id text NULL,
        secret_box text NULL,
        previous_key_id text NULL,
        previous_secret_box text NULL,
        previous_expires_at timestamptz NULL,
        rotated_at timestamptz NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((status = 'DELETED') = (secret_box IS NULL)),
        CHECK ((secret_box IS NULL) = (key_id IS NULL)),
        CHECK ((previous_secret_box IS NULL) = (previous_expires_at IS NULL)),
        CHECK ((previous_secret_box IS NULL) = (previous_key_id IS NULL)),
        CHECK (domain = 'acquiring' OR events IS NULL)
      )`);
    await q.query(`CREATE UNIQUE INDEX webhook_endpoints_tenant_domain_uq ON webhook_endpoints (tenant_id, domain)`);

    await q.query(`
      CREATE TABLE webhook_events (
        id text PRIMARY KEY CHECK (id ~ '^evt_[0-9a-f]{24}$'),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        domain text NOT NULL CHECK (domain IN ('acquiring', 'pix-automatic')),
        type text NOT NULL CHECK (length(type) BETWEEN 1 AND 100),
        id_tx text NULL CHECK (id_tx IS NULL OR length(id_tx) <= 100),
        data jsonb NOT NULL CHECK (jsonb_typeof(data) = 'object'),
        occurred_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX webhook_events_tenant_created_idx ON webhook_events (tenant_id, created_at)`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        event_id text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
        endpoint_id uuid NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        domain text NOT NULL CHECK (domain IN ('acquiring', 'pix-automatic')),
        event_type text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'DEAD', 'CANCELLED', 'NO_ENDPOINT')),
        attempts int NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        next_attempt_at timestamptz NULL,
        leased_until timestamptz NULL,
        claim_token uuid NULL,
        last_attempt_at timestamptz NULL,
        last_status_code int NULL,
        last_error text NULL,
        delivered_at timestamptz NULL,
        replay_of uuid NULL REFERENCES webhook_deliveries(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL,
        CHECK ((status = 'PENDING') = (next_attempt_at IS NOT NULL)),
        CHECK (status = 'NO_ENDPOINT' OR endpoint_id IS NOT NULL),
        CHECK ((status = 'DELIVERED') = (delivered_at IS NOT NULL)),
        CHECK ((leased_until IS NULL) = (claim_token IS NULL))
      ) WITH (fillfactor = 80)`);
    // The worker's claim: per endpoint, oldest due first (also the lag: min per endpoint). A claim
    // only sets leased_until / claim_token (not indexed), so it is a HOT update (fillfactor 80).
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at) WHERE status = 'PENDING'`);
    // The delivery log, newest first, per tenant.
    await q.query(`CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (tenant_id, created_at DESC, id)`);
    // One original delivery per event (one endpoint per tenant and domain); replays add rows.
    await q.query(`CREATE UNIQUE INDEX webhook_deliveries_event_original_uq ON webhook_deliveries (event_id) WHERE replay_of IS NULL`);

    await q.query(`
      CREATE TABLE webhook_delivery_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt int NOT NULL CHECK (attempt >= 1),
        url text NOT NULL,
        outcome text NOT NULL CHECK (outcome IN ('delivered', 'failed', 'gone', 'refused')),
        status_code int NULL CHECK (status_code IS NULL OR status_code BETWEEN 100 AND 999),
        latency_ms int NOT NULL CHECK (latency_ms >= 0),
        error text NULL,
        response_snippet text NULL CHECK (response_snippet IS NULL OR octet_length(response_snippet) <= 1024),
        created_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, attempt)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_delivery_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_events`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}
