import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The one job queue (kernel/platform/queue): a row per piece of work that must happen and may be
 * retried, unique per (kind, key) so enqueuing twice adds nothing. A worker claims due rows with
 * FOR UPDATE SKIP LOCKED and runs each in its own transaction with its effects, marked done in it;
 * a failure counts an attempt and waits its backoff; past the kind's bound the row is dead until an
 * operator replays it. Adyen's webhook items are its first kind: each accepted item enqueues its
 * application, and an item whose fields fail the edge's checks is kept rejected with its reason.
 */
export class JobQueue1765100000000 implements MigrationInterface {
  name = 'JobQueue1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE jobs (
        id bigserial PRIMARY KEY,
        kind text NOT NULL,
        key text NOT NULL,
        payload jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'dead')),
        attempts int NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        run_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        CONSTRAINT jobs_once UNIQUE (kind, key)
      )`);
    await q.query(`CREATE INDEX jobs_due_ix ON jobs (run_at, id) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX jobs_dead_ix ON jobs (kind, id) WHERE status = 'dead'`);
    await q.query(`ALTER TABLE adyen_notifications ADD COLUMN rejected_reason text`);
    // items stored before the queue and not applied yet: their application is enqueued once
    await q.query(`
      INSERT INTO jobs (kind, key)
      SELECT 'adyen.notification', id::text FROM adyen_notifications WHERE applied_at IS NULL
      ON CONFLICT ON CONSTRAINT jobs_once DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE adyen_notifications DROP COLUMN rejected_reason`);
    await q.query(`DROP TABLE jobs`);
  }
}
