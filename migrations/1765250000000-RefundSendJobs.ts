import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refund re-sends move onto the job queue (docs/decisions.md, "One job queue"): a refund to send
 * has a job (`refund.send.card` or `refund.send.pix`, key the refund id) instead of the leased
 * `next_attempt_at`/`send_attempts` columns, which go. Refunds still waiting for a (re)send or a
 * look-up get their job, due at once.
 */
export class RefundSendJobs1765250000000 implements MigrationInterface {
  name = 'RefundSendJobs1765250000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO jobs (kind, key, payload)
      SELECT 'refund.send.' || rail, id::text, jsonb_build_object('refundId', id::text)
        FROM refunds WHERE status = 'PENDING' AND next_attempt_at IS NOT NULL AND rail IN ('card', 'pix')
      ON CONFLICT ON CONSTRAINT jobs_once DO NOTHING`);
    await q.query(`DROP INDEX refunds_to_send_idx`);
    await q.query(`ALTER TABLE refunds DROP COLUMN next_attempt_at, DROP COLUMN send_attempts`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refunds ADD COLUMN send_attempts int NOT NULL DEFAULT 0, ADD COLUMN next_attempt_at timestamptz`);
    await q.query(`CREATE INDEX refunds_to_send_idx ON refunds (next_attempt_at) WHERE next_attempt_at IS NOT NULL`);
    await q.query(`
      UPDATE refunds r SET next_attempt_at = now() FROM jobs j
       WHERE j.kind IN ('refund.send.card', 'refund.send.pix') AND j.key = r.id::text AND j.status = 'pending' AND r.status = 'PENDING'`);
    await q.query(`DELETE FROM jobs WHERE kind IN ('refund.send.card', 'refund.send.pix')`);
  }
}
