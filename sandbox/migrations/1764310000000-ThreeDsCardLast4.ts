import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The last four digits of the card a 3DS transaction authenticates, so the ACS challenge page can
 * show the cardholder which card the code is for (never more of the number).
 */
export class ThreeDsCardLast41764310000000 implements MigrationInterface {
  name = 'ThreeDsCardLast41764310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE sandbox_three_ds_transactions ADD COLUMN last4 text CONSTRAINT sandbox_three_ds_transactions_last4_check CHECK (last4 ~ '^[0-9]{4}$')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_three_ds_transactions DROP COLUMN last4`);
  }
}
