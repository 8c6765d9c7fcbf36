import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox PSP gives money back (API Pix `PUT /pix/{e2eid}/devolucao/{id}`) and plays payouts.
 *
 * `sandbox_psp_devolucoes`: the devoluções of a received Pix, keyed by the Pix and the client's
 * `{id}` (an id is unique per e2eid, as the standard says). `request_hash` is what a repeated PUT
 * is compared with (NULL for the ones the payer's side started: MED). `ticks_left` counts the
 * sandbox ticks until it settles to `outcome` (the test data of its valor decides both).
 *
 * `sandbox_psp_pix.origin`: a received Pix of a cob/cobv or of a Pix Automático cobr (the latter
 * is now recorded when its attempt is paid, so it can be read and given back like any other).
 *
 * `sandbox_psp_payouts`: Pix the merchant sent (a boleto paid by clearing refunded by a transfer);
 * a sandbox-only control route, API Pix has no operation that sends a Pix.
 */
export class SandboxPspDevolucoes1764180000500 implements MigrationInterface {
  name = 'SandboxPspDevolucoes1764180000500';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_psp_pix ADD COLUMN origin text NOT NULL DEFAULT 'cob' CHECK (origin IN ('cob', 'cobr'))`);
    await q.query(`
      CREATE TABLE sandbox_psp_devolucoes (
        end_to_end_id text NOT NULL REFERENCES sandbox_psp_pix (end_to_end_id),
        id text NOT NULL CHECK (id ~ '^[a-zA-Z0-9]{1,35}$'),
        rtr_id text NOT NULL UNIQUE CHECK (rtr_id ~ '^[A-Za-z0-9]{32}$'),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        natureza text NOT NULL CHECK (natureza IN ('ORIGINAL', 'RETIRADA', 'MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO')),
        descricao text CHECK (descricao IS NULL OR length(descricao) <= 140),
        request_hash text,
        status text NOT NULL CHECK (status IN ('EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO')),
        outcome text NOT NULL CHECK (outcome IN ('DEVOLVIDO', 'NAO_REALIZADO')),
        motivo text CHECK (motivo IS NULL OR length(motivo) <= 140),
        ticks_left int NOT NULL DEFAULT 0 CHECK (ticks_left >= 0),
        requested_at timestamptz NOT NULL,
        settled_at timestamptz,
        PRIMARY KEY (end_to_end_id, id),
        CHECK ((status = 'EM_PROCESSAMENTO') = (settled_at IS NULL))
      )`);
    await q.query(
      `CREATE INDEX sandbox_psp_devolucoes_processing_ix ON sandbox_psp_devolucoes (requested_at) WHERE status = 'EM_PROCESSAMENTO'`,
    );
    await q.query(`
      CREATE TABLE sandbox_psp_payouts (
        end_to_end_id text PRIMARY KEY CHECK (end_to_end_id ~ '^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$'),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        chave text,
        account jsonb,
        descricao text CHECK (descricao IS NULL OR length(descricao) <= 140),
        status text NOT NULL CHECK (status IN ('REALIZADO', 'NAO_REALIZADO')),
        motivo text,
        created_at timestamptz NOT NULL,
        CHECK ((chave IS NULL) <> (account IS NULL))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_psp_payouts`);
    await q.query(`DROP TABLE sandbox_psp_devolucoes`);
    await q.query(
      `DELETE FROM sandbox_psp_pix_callbacks c USING sandbox_psp_pix p WHERE p.end_to_end_id = c.end_to_end_id AND p.origin = 'cobr'`,
    );
    await q.query(`DELETE FROM sandbox_psp_pix WHERE origin = 'cobr'`);
    await q.query(`ALTER TABLE sandbox_psp_pix DROP COLUMN origin`);
  }
}
