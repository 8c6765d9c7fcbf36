import { MigrationInterface, QueryRunner } from 'typeorm';

const KINDS = `('card_payment', 'link_payment', 'billing')`;

/**
 * Refunds of Pix (API Pix devoluções) and MED cases. Refunds, balances and disputes may belong to
 * a link's payment (a Pix, or a boleto paid by its Pix QR) or to a Pix Automático billing, not only
 * to a card payment; a refund says its rail (`card` or `pix`). A balance names the payment's parent
 * (its link, its recurrence) so a link's totals are one indexed sum. `med_cents` is what MED
 * devoluções took from the Pix (money that left without our asking); what it holds against the
 * cap is `disputed_cents`, never more than refunds left (so the CHECK holds), topped up again when
 * a refund fails. `med_cases` are those devoluções, one per PSP devolução id. The received-Pix
 * store keeps the Pix's valor and settlement time (the 90-day window is counted from it).
 */
export class PixRefunds1764220000000 implements MigrationInterface {
  name = 'PixRefunds1764220000000';

  async up(q: QueryRunner): Promise<void> {
    for (const t of ['refund_balances', 'refunds', 'disputes']) {
      await q.query(`ALTER TABLE ${t} DROP CONSTRAINT ${t}_payment_kind_check`);
      await q.query(`ALTER TABLE ${t} ADD CONSTRAINT ${t}_payment_kind_check CHECK (payment_kind IN ${KINDS})`);
    }
    await q.query(`ALTER TABLE refund_balances ADD COLUMN parent_id text`);
    await q.query(`ALTER TABLE refund_balances ADD COLUMN med_cents bigint NOT NULL DEFAULT 0 CHECK (med_cents >= 0)`);
    await q.query(`CREATE INDEX refund_balances_parent_idx ON refund_balances (parent_id) WHERE parent_id IS NOT NULL`);
    await q.query(`ALTER TABLE refunds ADD COLUMN rail text NOT NULL DEFAULT 'card' CHECK (rail IN ('card', 'pix'))`);
    await q.query(`ALTER TABLE refunds ADD COLUMN parent_id text`);
    await q.query(`CREATE INDEX refunds_parent_idx ON refunds (parent_id, created_at DESC) WHERE parent_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE med_cases (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        payment_id text NOT NULL REFERENCES refund_balances (payment_id),
        payment_kind text NOT NULL CHECK (payment_kind IN ${KINDS}),
        end_to_end_id text NOT NULL,
        devolucao_id text NOT NULL,
        rtr_id text,
        natureza text NOT NULL CHECK (natureza IN ('MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO')),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        status text NOT NULL CHECK (status IN ('EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO')),
        descricao text,
        motivo text,
        returned_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (end_to_end_id, devolucao_id)
      )`);
    await q.query(`CREATE INDEX med_cases_tenant_idx ON med_cases (tenant_id, created_at DESC)`);
    await q.query(`CREATE INDEX med_cases_payment_idx ON med_cases (payment_id)`);
    await q.query(`ALTER TABLE pix_api_pix_received ADD COLUMN amount_cents bigint, ADD COLUMN horario timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE pix_api_pix_received DROP COLUMN amount_cents, DROP COLUMN horario`);
    await q.query(`DROP TABLE med_cases`);
    await q.query(`ALTER TABLE refunds DROP COLUMN parent_id, DROP COLUMN rail`);
    await q.query(`ALTER TABLE refund_balances DROP COLUMN med_cents, DROP COLUMN parent_id`);
    for (const t of ['refund_balances', 'refunds', 'disputes']) {
      await q.query(`ALTER TABLE ${t} DROP CONSTRAINT ${t}_payment_kind_check`);
      await q.query(`ALTER TABLE ${t} ADD CONSTRAINT ${t}_payment_kind_check CHECK (payment_kind IN ('card_payment'))`);
    }
  }
}
