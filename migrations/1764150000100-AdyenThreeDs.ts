import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox's Adyen face for native 3DS2 (authentication only): between `/payments` (the
 * fingerprint action) and `/payments/details` it keeps the outcome the card decided and where the
 * ACS sends the shopper back, never the card number.
 */
export class AdyenThreeDs1764150000100 implements MigrationInterface {
  name = 'AdyenThreeDs1764150000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_adyen_three_ds (
        reference_id text PRIMARY KEY,
        psp_reference text NOT NULL UNIQUE,
        merchant_reference text NOT NULL,
        decision jsonb NOT NULL,
        amount_cents bigint NOT NULL,
        return_url text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_adyen_three_ds`);
  }
}
