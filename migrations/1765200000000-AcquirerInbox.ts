import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The generic acquirer's notifications (`POST /provider/acquirer-events`) kept once each, by the
 * acquirer's eventId, in the transaction behind the 2xx it gets, with their application enqueued
 * on the job queue (kind `acquirer.notification`, key: the eventId); a notification whose fields
 * fail the edge's checks is kept with `rejected_reason` and never applied. They were applied in
 * the request before, a failure answering 500 for the acquirer to redeliver.
 */
export class AcquirerInbox1765200000000 implements MigrationInterface {
  name = 'AcquirerInbox1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE acquirer_notifications (
        event_id text PRIMARY KEY,
        type text NOT NULL,
        payload jsonb NOT NULL,
        rejected_reason text,
        received_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz,
        handled_by text[]
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE acquirer_notifications`);
  }
}
