import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment notices' retries move onto the job queue (docs/decisions.md, "One job queue"): a notice
 * has a `links.email` job (key its row's id) instead of the row's own `attempts`,
 * `next_attempt_at`, `last_error` and DEAD status, which go. Notices still to send get a pending
 * job; dead ones a dead job with their attempts and error (replayable), their row PENDING again.
 */
export class LinksEmailJobs1765250000100 implements MigrationInterface {
  name = 'LinksEmailJobs1765250000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO jobs (kind, key, status, attempts, last_error, finished_at)
      SELECT 'links.email', id::text, CASE WHEN status = 'DEAD' THEN 'dead' ELSE 'pending' END, attempts, last_error,
             CASE WHEN status = 'DEAD' THEN now() END
        FROM links_email_outbox WHERE status IN ('PENDING', 'DEAD')
      ON CONFLICT ON CONSTRAINT jobs_once DO NOTHING`);
    await q.query(`UPDATE links_email_outbox SET status = 'PENDING' WHERE status = 'DEAD'`);
    await q.query(`DROP INDEX links_email_outbox_due`);
    await q.query(`ALTER TABLE links_email_outbox DROP CONSTRAINT links_email_outbox_status_check`);
    await q.query(`ALTER TABLE links_email_outbox ADD CONSTRAINT links_email_outbox_status_check CHECK (status IN ('PENDING', 'SENT'))`);
    await q.query(`ALTER TABLE links_email_outbox DROP COLUMN attempts, DROP COLUMN next_attempt_at, DROP COLUMN last_error`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE links_email_outbox ADD COLUMN attempts int NOT NULL DEFAULT 0,
        ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(), ADD COLUMN last_error text`);
    await q.query(`ALTER TABLE links_email_outbox DROP CONSTRAINT links_email_outbox_status_check`);
    await q.query(
      `ALTER TABLE links_email_outbox ADD CONSTRAINT links_email_outbox_status_check CHECK (status IN ('PENDING', 'SENT', 'DEAD'))`,
    );
    await q.query(`
      UPDATE links_email_outbox o SET attempts = j.attempts, last_error = j.last_error,
             status = CASE WHEN j.status = 'dead' THEN 'DEAD' ELSE o.status END
        FROM jobs j WHERE j.kind = 'links.email' AND j.key = o.id::text`);
    await q.query(`CREATE INDEX links_email_outbox_due ON links_email_outbox (next_attempt_at) WHERE status = 'PENDING'`);
    await q.query(`DELETE FROM jobs WHERE kind = 'links.email'`);
  }
}
