import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API Pix charges of links and boletos (cob, cobv, loc, pix, webhook/{chave}), both sides.
 *
 * Sandbox PSP: a cob or cobv is a row of `sandbox_acquirer_pix_charges` (one state with the
 * acquirer's Pix charges: the sandbox bank app pays either the same way), marked `face = 'psp'`,
 * with the standard's fields; a cobv printed on a boleto names it (`boleto_id`). Locations are
 * `sandbox_psp_locations` (the token of the open URL the payer's bank reads), received Pix
 * `sandbox_psp_pix`, webhook registrations per key `sandbox_psp_pix_webhooks`, and the callbacks
 * still to post `sandbox_psp_pix_callbacks` (an outbox with leases).
 *
 * Service: `pix_api_charges` are the cob/cobv this service asked for (txid → our transaction,
 * what to check at expiry); `pix_api_pix_received` the received Pix by endToEndId, each applied
 * once (a repeated callback finds its row and changes nothing).
 */
export class PixApiCob1763600800200 implements MigrationInterface {
  name = 'PixApiCob1763600800200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE sandbox_acquirer_pix_charges DROP CONSTRAINT sandbox_acquirer_pix_charges_txid_check`);
    await q.query(
      `ALTER TABLE sandbox_acquirer_pix_charges ADD CONSTRAINT sandbox_acquirer_pix_charges_txid_check CHECK (txid ~ '^[A-Za-z0-9]{1,35}$')`,
    );
    await q.query(`ALTER TABLE sandbox_acquirer_pix_charges DROP CONSTRAINT sandbox_acquirer_pix_charges_status_check`);
    await q.query(
      `ALTER TABLE sandbox_acquirer_pix_charges ADD CONSTRAINT sandbox_acquirer_pix_charges_status_check CHECK (status IN ('PENDING', 'AUTHORIZED', 'SETTLED', 'EXPIRED', 'REMOVED'))`,
    );
    await q.query(`
      ALTER TABLE sandbox_acquirer_pix_charges
        ADD COLUMN face text NOT NULL DEFAULT 'acquirer' CHECK (face IN ('acquirer', 'psp')),
        ADD COLUMN kind text NOT NULL DEFAULT 'cob' CHECK (kind IN ('cob', 'cobv')),
        ADD COLUMN revisao int NOT NULL DEFAULT 0,
        ADD COLUMN expiracao_s int CHECK (expiracao_s IS NULL OR expiracao_s > 0),
        ADD COLUMN due_date date,
        ADD COLUMN validade_apos_vencimento int CHECK (validade_apos_vencimento IS NULL OR validade_apos_vencimento >= 0),
        ADD COLUMN devedor jsonb,
        ADD COLUMN chave text,
        ADD COLUMN solicitacao_pagador text,
        ADD COLUMN info_adicionais jsonb,
        ADD COLUMN loc_id bigint,
        ADD COLUMN boleto_id text,
        ADD COLUMN removed_by text CHECK (removed_by IS NULL OR removed_by IN ('USUARIO_RECEBEDOR', 'PSP')),
        ADD CONSTRAINT sandbox_acquirer_pix_charges_psp_ck CHECK (face = 'acquirer' OR (chave IS NOT NULL AND (kind = 'cob') = (expiracao_s IS NOT NULL) AND (kind = 'cobv') = (due_date IS NOT NULL)))`);
    await q.query(
      `CREATE INDEX sandbox_acquirer_pix_charges_psp_created_ix ON sandbox_acquirer_pix_charges (created_at) WHERE face = 'psp'`,
    );
    await q.query(
      `CREATE INDEX sandbox_acquirer_pix_charges_boleto_ix ON sandbox_acquirer_pix_charges (boleto_id) WHERE boleto_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE sandbox_psp_locations (
        id bigserial PRIMARY KEY,
        token text NOT NULL UNIQUE CHECK (token ~ '^[a-f0-9]{20,32}$'),
        tipo_cob text NOT NULL CHECK (tipo_cob IN ('cob', 'cobv')),
        txid text UNIQUE,
        client_id text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`ALTER TABLE sandbox_acquirer_pix_charges ADD CONSTRAINT sandbox_acquirer_pix_charges_loc_uq UNIQUE (loc_id)`);

    await q.query(`
      CREATE TABLE sandbox_psp_pix (
        end_to_end_id text PRIMARY KEY CHECK (end_to_end_id ~ '^[A-Za-z0-9]{32}$'),
        txid text NOT NULL,
        chave text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        paid_at timestamptz NOT NULL,
        info_pagador text
      )`);
    // One Pix per charge: a charge is paid once (the money is never taken twice for one QR).
    await q.query(`CREATE UNIQUE INDEX sandbox_psp_pix_txid_uq ON sandbox_psp_pix (txid)`);
    await q.query(`CREATE INDEX sandbox_psp_pix_paid_ix ON sandbox_psp_pix (paid_at)`);

    await q.query(`
      CREATE TABLE sandbox_psp_pix_webhooks (
        chave text PRIMARY KEY,
        client_id text NOT NULL,
        webhook_url text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE TABLE sandbox_psp_pix_callbacks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        end_to_end_id text NOT NULL REFERENCES sandbox_psp_pix (end_to_end_id),
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX sandbox_psp_pix_callbacks_due_ix ON sandbox_psp_pix_callbacks (next_attempt_at) WHERE delivered_at IS NULL`,
    );

    await q.query(`
      CREATE TABLE pix_api_charges (
        txid text PRIMARY KEY CHECK (txid ~ '^[a-zA-Z0-9]{26,35}$'),
        kind text NOT NULL CHECK (kind IN ('cob', 'cobv')),
        transaction_id text NOT NULL UNIQUE,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        expires_at timestamptz,
        due_date date,
        closed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((kind = 'cob') = (expires_at IS NOT NULL) AND (kind = 'cobv') = (due_date IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX pix_api_charges_open_cob_ix ON pix_api_charges (expires_at) WHERE closed_at IS NULL AND kind = 'cob'`);
    await q.query(`
      CREATE TABLE pix_api_pix_received (
        end_to_end_id text PRIMARY KEY CHECK (end_to_end_id ~ '^[a-zA-Z0-9]{32}$'),
        status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'APPLIED', 'IGNORED')),
        txid text,
        outcome text,
        attempts int NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        last_error text,
        received_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz
      )`);
    await q.query(`CREATE INDEX pix_api_pix_received_due_ix ON pix_api_pix_received (next_attempt_at) WHERE status = 'PENDING'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pix_api_pix_received`);
    await q.query(`DROP TABLE pix_api_charges`);
    await q.query(`DROP TABLE sandbox_psp_pix_callbacks`);
    await q.query(`DROP TABLE sandbox_psp_pix_webhooks`);
    await q.query(`DROP TABLE sandbox_psp_pix`);
    await q.query(`DELETE FROM sandbox_acquirer_pix_charges WHERE face = 'psp'`);
    await q.query(`ALTER TABLE sandbox_acquirer_pix_charges DROP CONSTRAINT sandbox_acquirer_pix_charges_loc_uq`);
    await q.query(`DROP TABLE sandbox_psp_locations`);
    await q.query(`DROP INDEX sandbox_acquirer_pix_charges_boleto_ix`);
    await q.query(`DROP INDEX sandbox_acquirer_pix_charges_psp_created_ix`);
    await q.query(`
      ALTER TABLE sandbox_acquirer_pix_charges DROP CONSTRAINT sandbox_acquirer_pix_charges_psp_ck,
        DROP COLUMN face, DROP COLUMN kind, DROP COLUMN revisao, DROP COLUMN expiracao_s, DROP COLUMN due_date,
        DROP COLUMN validade_apos_vencimento, DROP COLUMN devedor, DROP COLUMN chave, DROP COLUMN solicitacao_pagador,
        DROP COLUMN info_adicionais, DROP COLUMN loc_id, DROP COLUMN boleto_id, DROP COLUMN removed_by`);
    await q.query(`ALTER TABLE sandbox_acquirer_pix_charges DROP CONSTRAINT sandbox_acquirer_pix_charges_status_check`);
    await q.query(
      `ALTER TABLE sandbox_acquirer_pix_charges ADD CONSTRAINT sandbox_acquirer_pix_charges_status_check CHECK (status IN ('PENDING', 'AUTHORIZED', 'SETTLED', 'EXPIRED'))`,
    );
    await q.query(`ALTER TABLE sandbox_acquirer_pix_charges DROP CONSTRAINT sandbox_acquirer_pix_charges_txid_check`);
    await q.query(
      `ALTER TABLE sandbox_acquirer_pix_charges ADD CONSTRAINT sandbox_acquirer_pix_charges_txid_check CHECK (txid ~ '^[A-Za-z0-9]{1,25}$')`,
    );
  }
}
