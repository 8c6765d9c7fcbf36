import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API Pix billings (cobr), both sides.
 *
 * Sandbox PSP: a cobr is a row of `sandbox_bank_billings` (one bank state for both faces) with
 * `id_rec` set; it also keeps its settlement attempts (`tentativas`), the date of the next one,
 * how it ended, and its status history (`atualizacao`), which a trigger appends in the sandbox
 * clock's time whatever code moved the row. The PSP's webhook registrations
 * (`PUT /webhookrec`, `/webhookcobr`) are `sandbox_psp_webhooks`.
 *
 * Service: `pix_api_callbacks` is the queue of PSP callbacks still to apply, one row per
 * (kind, id): a callback only says "this one changed", so repeats collapse into the pending row.
 */
export class PixApiCobr1763600800100 implements MigrationInterface {
  name = 'PixApiCobr1763600800100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE sandbox_bank_billings
        ADD COLUMN id_rec text,
        ADD COLUMN ajuste_dia_util boolean,
        ADD COLUMN receiver jsonb,
        ADD COLUMN psp_created_at timestamptz,
        ADD COLUMN attempt_date date,
        ADD COLUMN tentativas jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN encerramento jsonb,
        ADD COLUMN history jsonb NOT NULL DEFAULT '[]'`);
    await q.query(
      `CREATE INDEX sandbox_bank_billings_cobr_created_ix ON sandbox_bank_billings (psp_created_at, id_tx) WHERE id_rec IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX sandbox_bank_billings_cobr_attempt_ix ON sandbox_bank_billings (attempt_date) WHERE id_rec IS NOT NULL AND status = 'ACTIVE'`,
    );
    await q.query(`
      CREATE FUNCTION sandbox_cobr_history() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE at timestamptz := now() + make_interval(secs => coalesce((SELECT offset_ms FROM platform_clock WHERE id = 1), 0) / 1000.0);
      BEGIN
        NEW.history := NEW.history || jsonb_build_array(jsonb_build_object(
          'status', CASE NEW.status WHEN 'RECEIVED' THEN 'CRIADA' WHEN 'ACTIVE' THEN 'ATIVA' WHEN 'COMPLETED' THEN 'CONCLUIDA'
                      WHEN 'REJECTED' THEN 'REJEITADA' WHEN 'EXPIRED' THEN 'EXPIRADA' ELSE 'CANCELADA' END,
          'data', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER sandbox_cobr_history BEFORE UPDATE OF status ON sandbox_bank_billings
      FOR EACH ROW WHEN (NEW.id_rec IS NOT NULL AND NEW.status IS DISTINCT FROM OLD.status) EXECUTE FUNCTION sandbox_cobr_history()`);
    await q.query(`
      CREATE TABLE sandbox_psp_webhooks (
        kind text NOT NULL CHECK (kind IN ('rec','cobr')),
        client_id text NOT NULL,
        webhook_url text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (kind, client_id)
      )`);
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
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pix_api_callbacks`);
    await q.query(`DROP TABLE sandbox_psp_webhooks`);
    await q.query(`DROP TRIGGER sandbox_cobr_history ON sandbox_bank_billings`);
    await q.query(`DROP FUNCTION sandbox_cobr_history()`);
    await q.query(`DROP INDEX sandbox_bank_billings_cobr_attempt_ix`);
    await q.query(`DROP INDEX sandbox_bank_billings_cobr_created_ix`);
    await q.query(`
      ALTER TABLE sandbox_bank_billings DROP COLUMN id_rec, DROP COLUMN ajuste_dia_util, DROP COLUMN receiver, DROP COLUMN psp_created_at,
        DROP COLUMN attempt_date, DROP COLUMN tentativas, DROP COLUMN encerramento, DROP COLUMN history`);
  }
}
