import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A card attempt between "asking the acquirer" and "recording its answer": if the process dies
 * in between, a recovery job finds the row, asks the acquirer what it did with our transaction
 * id, and records the item (or drops the row when the acquirer has nothing).
 */
export class LinksCardAttempts1763600400200 implements MigrationInterface {
  name = 'LinksCardAttempts1763600400200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE links_card_attempts (
        payment_id uuid PRIMARY KEY,
        link_id uuid NOT NULL REFERENCES links (id),
        item jsonb NOT NULL,
        check_after timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX links_card_attempts_due ON links_card_attempts (check_after)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE links_card_attempts`);
  }
}
