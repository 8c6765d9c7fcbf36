import { MigrationInterface, QueryRunner } from 'typeorm';

export class Platform1763600000000 implements MigrationInterface {
  name = 'Platform1763600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pgcrypto`);
    await q.query(`
      CREATE TABLE tenants (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        allowed_cidrs text[] NOT NULL DEFAULT '{}',
        rate_limit_per_minute int NOT NULL DEFAULT 100 CHECK (rate_limit_per_minute > 0),
        status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'SUSPENDED')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE TABLE platform_clock (id int PRIMARY KEY CHECK (id = 1), offset_ms bigint NOT NULL DEFAULT 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platform_clock`);
    await q.query(`DROP TABLE tenants`);
  }
}
