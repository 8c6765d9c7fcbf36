import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A boleto paid by bank clearing has no network refund, and API Pix has no standard operation that
 * sends a Pix: its refund is a payout the tenant makes and then confirms (rail `payout`), with the
 * payee's Pix key kept on the refund until then.
 */
export class RefundPayouts1764237000000 implements MigrationInterface {
  name = 'RefundPayouts1764237000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refunds DROP CONSTRAINT refunds_rail_check`);
    await q.query(`ALTER TABLE refunds ADD CONSTRAINT refunds_rail_check CHECK (rail IN ('card', 'pix', 'payout'))`);
    await q.query(`ALTER TABLE refunds ADD COLUMN payout_destination jsonb`);
    await q.query(
      `ALTER TABLE refunds ADD CONSTRAINT refunds_payout_has_destination CHECK ((rail = 'payout') = (payout_destination IS NOT NULL))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refunds DROP CONSTRAINT refunds_payout_has_destination`);
    await q.query(`ALTER TABLE refunds DROP COLUMN payout_destination`);
    await q.query(`DELETE FROM refunds WHERE rail = 'payout'`);
    await q.query(`ALTER TABLE refunds DROP CONSTRAINT refunds_rail_check`);
    await q.query(`ALTER TABLE refunds ADD CONSTRAINT refunds_rail_check CHECK (rail IN ('card', 'pix'))`);
  }
}
