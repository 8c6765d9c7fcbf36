import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sandbox PSP: authorization requests pushed to the payer's bank (`POST /solicrec`, Jornada 1). */
export class PixApiSolicRec1763600800300 implements MigrationInterface {
  name = 'PixApiSolicRec1763600800300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_psp_solicrec (
        id_solic_rec text PRIMARY KEY,
        id_rec text NOT NULL REFERENCES sandbox_bank_recurrences (recurrence_id),
        destinatario jsonb NOT NULL,
        expires_at timestamptz NOT NULL,
        cancelled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sandbox_psp_solicrec_rec_ix ON sandbox_psp_solicrec (id_rec)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_psp_solicrec`);
  }
}
