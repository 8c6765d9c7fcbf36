import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook retention (see WebhookRetention): events older than WEBHOOK_RETENTION_DAYS whose
 * deliveries are all finished are deleted with their deliveries and attempts. The job finds them
 * by age; the cascades find deliveries by event and replays by what they replay, so each of
 * those lookups needs an index (without one, every deleted row would scan the table).
 */
export class WebhookRetention1763600600000 implements MigrationInterface {
  name = 'WebhookRetention1763600600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_events_created_idx ON webhook_events (created_at)`);
    await q.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);
    await q.query(`CREATE INDEX webhook_deliveries_replay_of_idx ON webhook_deliveries (replay_of) WHERE replay_of IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_replay_of_idx`);
    await q.query(`DROP INDEX webhook_deliveries_event_idx`);
    await q.query(`DROP INDEX webhook_events_created_idx`);
  }
}
