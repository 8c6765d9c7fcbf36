import { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency-Key records: one per (tenant, key), claimed before the work, kept 24 h. */
export class Idempotency1763600100001 implements MigrationInterface {
  name = 'Idempotency1763600100001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        key text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
        request_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('IN_FLIGHT', 'DONE')),
        response_status int,
        response_body jsonb,
        locked_until timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, key),
        CHECK (status <> 'DONE' OR response_status IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
