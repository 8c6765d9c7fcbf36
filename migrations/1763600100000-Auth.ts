import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenant RSA keys, their challenges and the client credentials issued for each key. */
export class Auth1763600100000 implements MigrationInterface {
  name = 'Auth1763600100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE auth_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        public_key_pem text NOT NULL,
        fingerprint text NOT NULL,
        status text NOT NULL DEFAULT 'UNVERIFIED' CHECK (status IN ('UNVERIFIED', 'VERIFIED', 'REVOKED')),
        challenge text,
        challenge_expires_at timestamptz,
        challenge_used_at timestamptz,
        verified_at timestamptz,
        revoked_at timestamptz,
        client_id text,
        secret_hash text,
        credentials_issued_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((client_id IS NULL) = (secret_hash IS NULL)),
        CHECK (status <> 'VERIFIED' OR verified_at IS NOT NULL),
        CHECK (status <> 'REVOKED' OR revoked_at IS NOT NULL)
      )`);
    await q.query(`CREATE UNIQUE INDEX auth_keys_client_id_uq ON auth_keys (client_id) WHERE client_id IS NOT NULL`);
    await q.query(`CREATE INDEX auth_keys_tenant_idx ON auth_keys (tenant_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE auth_keys`);
  }
}
