import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The PSP's API Pix callbacks move onto the one job queue: a job per entity (`pix-api.rec` /
 * `pix-api.cobr`, key `<kind>:<idRec|txid>`), made due again by a later callback once done
 * (JobQueue.trigger), instead of `pix_api_callbacks` with its own lease, attempts and backoff.
 * Callbacks still queued there become pending jobs, then the table goes.
 */
export class PixApiCallbacksOnQueue1765300000000 implements MigrationInterface {
  name = 'PixApiCallbacksOnQueue1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO jobs (kind, key) SELECT 'pix-api.' || kind, kind || ':' || id FROM pix_api_callbacks
      ON CONFLICT ON CONSTRAINT jobs_once DO UPDATE SET status = 'pending', attempts = 0, run_at = now(), finished_at = NULL
      WHERE jobs.status = 'done'`);
    await q.query(`DROP TABLE pix_api_callbacks`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pix_api_callbacks (
        kind text NOT NULL CHECK (kind IN ('rec','cobr')),
        id text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        attempts int NOT NULL DEFAULT 0,
        last_error text,
        PRIMARY KEY (kind, id)
      )`);
    await q.query(`CREATE INDEX pix_api_callbacks_due_ix ON pix_api_callbacks (next_attempt_at)`);
    await q.query(`
      INSERT INTO pix_api_callbacks (kind, id) SELECT substr(kind, 9), substr(key, length(kind) - 6) FROM jobs
       WHERE kind IN ('pix-api.rec', 'pix-api.cobr') AND status = 'pending'`);
    await q.query(`DELETE FROM jobs WHERE kind IN ('pix-api.rec', 'pix-api.cobr')`);
  }
}
