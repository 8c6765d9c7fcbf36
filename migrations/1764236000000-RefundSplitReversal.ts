import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a refund of a split link payment takes back from each merchant and from the platform's fee
 * (domain/split-reversal.ts), kept with the refund when it is made.
 */
export class RefundSplitReversal1764236000000 implements MigrationInterface {
  name = 'RefundSplitReversal1764236000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refunds ADD COLUMN split_reversal jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refunds DROP COLUMN split_reversal`);
  }
}
