import { MigrationInterface, QueryRunner } from 'typeorm';

/** A per-link brake on checkout payment attempts (all payers together), set by the tenant; null: none. */
export class LinkCheckoutBrake1763600700000 implements MigrationInterface {
  name = 'LinkCheckoutBrake1763600700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE links ADD COLUMN checkout_attempts_per_minute int NULL
         CHECK (checkout_attempts_per_minute IS NULL OR checkout_attempts_per_minute BETWEEN 1 AND 100000)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE links DROP COLUMN checkout_attempts_per_minute`);
  }
}
