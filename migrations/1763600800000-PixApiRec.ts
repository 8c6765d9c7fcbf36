import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API Pix recurrences (rec), both sides.
 *
 * Service: `pix_recurrences.id_rec`, the PSP's id of the recurrence (it assigns it on POST /rec),
 * unique, so a callback or a page of GET /rec finds ours.
 *
 * Sandbox PSP: a rec is a row of `sandbox_bank_recurrences` (one bank state for both faces) with
 * `id_rec` set and what only the standard has (contrato, retry policy, location); its locations
 * (`POST /locrec`) are `sandbox_psp_locrec`, each one served to the payer's bank app by token.
 */
export class PixApiRec1763600800000 implements MigrationInterface {
  name = 'PixApiRec1763600800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE pix_recurrences ADD COLUMN IF NOT EXISTS id_rec text`);
    await q.query(`CREATE UNIQUE INDEX pix_recurrences_id_rec_ux ON pix_recurrences (id_rec) WHERE id_rec IS NOT NULL`);
    await q.query(`ALTER TABLE sandbox_bank_recurrences ADD COLUMN IF NOT EXISTS id_rec text`);
    await q.query(`
      ALTER TABLE sandbox_bank_recurrences
        ADD COLUMN contrato text,
        ADD COLUMN politica_retentativa text CHECK (politica_retentativa IN ('NAO_PERMITE','PERMITE_3R_7D')),
        ADD COLUMN loc_id bigint,
        ADD COLUMN approved_at timestamptz`);
    // When the payer approved (in the sandbox clock's time), whatever code moved the row: the
    // rec's history (atualizacao) and an end-date expiry are told from it.
    await q.query(`
      CREATE FUNCTION sandbox_rec_approved() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.approved_at := now() + make_interval(secs => coalesce((SELECT offset_ms FROM platform_clock WHERE id = 1), 0) / 1000.0);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER sandbox_rec_approved BEFORE UPDATE OF status ON sandbox_bank_recurrences
      FOR EACH ROW WHEN (NEW.id_rec IS NOT NULL AND OLD.status = 'PENDING' AND NEW.status IN ('ACCEPTED','ACTIVE')) EXECUTE FUNCTION sandbox_rec_approved()`);
    await q.query(`CREATE UNIQUE INDEX sandbox_bank_recurrences_id_rec_ux ON sandbox_bank_recurrences (id_rec) WHERE id_rec IS NOT NULL`);
    await q.query(`CREATE INDEX sandbox_bank_recurrences_psp_created_ix ON sandbox_bank_recurrences (created_at) WHERE id_rec IS NOT NULL`);
    await q.query(`
      CREATE TABLE sandbox_psp_locrec (
        id bigserial PRIMARY KEY,
        token text NOT NULL UNIQUE,
        id_rec text UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_psp_locrec`);
    await q.query(`DROP INDEX sandbox_bank_recurrences_psp_created_ix`);
    await q.query(`DROP INDEX sandbox_bank_recurrences_id_rec_ux`);
    await q.query(`DROP TRIGGER sandbox_rec_approved ON sandbox_bank_recurrences`);
    await q.query(`DROP FUNCTION sandbox_rec_approved()`);
    await q.query(
      `ALTER TABLE sandbox_bank_recurrences DROP COLUMN contrato, DROP COLUMN politica_retentativa, DROP COLUMN loc_id, DROP COLUMN approved_at, DROP COLUMN id_rec`,
    );
    await q.query(`DROP INDEX pix_recurrences_id_rec_ux`);
    await q.query(`ALTER TABLE pix_recurrences DROP COLUMN id_rec`);
  }
}
