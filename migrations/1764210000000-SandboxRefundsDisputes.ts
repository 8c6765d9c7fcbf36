import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox acquirer's refunds and disputes (it stands for an outside party: nothing of the
 * service reads these tables). A refund belongs to a card transaction and to the face it was
 * asked on (`service` protocol or Adyen); `plan` is what it still has to play, one step per tick
 * of the sandbox's clock (`SUCCEEDED`, `FAILED:<reason>`, `REVERSED`), chosen by the test amount.
 * Adyen's `/reversals` is a row too (`REVERSAL_REFUND` of what remains refundable, or
 * `REVERSAL_CANCEL` of an uncaptured authorisation). A dispute plays a named sequence of stages
 * the same way.
 */
export class SandboxRefundsDisputes1764210000000 implements MigrationInterface {
  name = 'SandboxRefundsDisputes1764210000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sandbox_acquirer_refunds (
        id text PRIMARY KEY,
        card_transaction_id text NOT NULL REFERENCES sandbox_acquirer_card_transactions (id),
        face text NOT NULL CHECK (face IN ('service', 'adyen')),
        kind text NOT NULL CHECK (kind IN ('REFUND', 'REVERSAL_REFUND', 'REVERSAL_CANCEL')),
        request_key text NOT NULL,
        request_hash text NOT NULL,
        psp_reference text,
        merchant_reference text,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        status text NOT NULL CHECK (status IN ('PENDING', 'SUCCEEDED', 'FAILED', 'REVERSED')),
        reason text,
        plan text[] NOT NULL DEFAULT '{}',
        steps_played int NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CONSTRAINT sandbox_acquirer_refunds_key_uq UNIQUE (face, request_key)
      )`);
    await q.query(`CREATE INDEX sandbox_acquirer_refunds_txn_ix ON sandbox_acquirer_refunds (card_transaction_id)`);
    await q.query(`CREATE INDEX sandbox_acquirer_refunds_due_ix ON sandbox_acquirer_refunds (created_at) WHERE cardinality(plan) > 0`);
    await q.query(`
      CREATE TABLE sandbox_acquirer_disputes (
        id text PRIMARY KEY,
        card_transaction_id text NOT NULL REFERENCES sandbox_acquirer_card_transactions (id),
        face text NOT NULL CHECK (face IN ('service', 'adyen')),
        sequence text NOT NULL,
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        reason_code text NOT NULL,
        stage text,
        plan text[] NOT NULL,
        defend_by timestamptz NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX sandbox_acquirer_disputes_txn_ix ON sandbox_acquirer_disputes (card_transaction_id)`);
    await q.query(`CREATE INDEX sandbox_acquirer_disputes_due_ix ON sandbox_acquirer_disputes (created_at) WHERE cardinality(plan) > 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_acquirer_disputes`);
    await q.query(`DROP TABLE sandbox_acquirer_refunds`);
  }
}
