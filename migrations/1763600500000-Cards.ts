import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hosted card sessions, the card vault, single-use card tokens, card payments, 3DS
 * authentications and the sandbox 3DS server's own records.
 *
 * No column ever holds a card number or a security code: the vault keeps the card number
 * encrypted (AES-256-GCM under a per-record data key wrapped by a master key), the fingerprint
 * is a keyed HMAC, and the security code lives only in process memory (see docs/decisions/cards.md).
 */
export class Cards1763600500000 implements MigrationInterface {
  name = 'Cards1763600500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE card_settings (
        tenant_id uuid PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
        frame_ancestors text[] NOT NULL DEFAULT '{}' CHECK (cardinality(frame_ancestors) <= 20),
        updated_at timestamptz NOT NULL
      )`);

    await q.query(`
      CREATE TABLE stored_cards (
        id text PRIMARY KEY CHECK (id ~ '^sc_[A-Za-z0-9_-]{16,64}$'),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        fingerprint text NOT NULL CHECK (fingerprint ~ '^[0-9a-f]{64}$'),
        key_id text NOT NULL,
        wrapped_data_key text NOT NULL,
        iv text NOT NULL,
        tag text NOT NULL,
        ciphertext text NOT NULL,
        brand text NOT NULL CHECK (brand IN ('VISA', 'MASTERCARD', 'AMEX', 'UNKNOWN')),
        first4 text NOT NULL CHECK (first4 ~ '^[0-9]{4}$'),
        last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
        exp_month smallint NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
        exp_year smallint NOT NULL CHECK (exp_year BETWEEN 2000 AND 2199),
        nickname text CHECK (char_length(nickname) <= 40),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    // The same card (same keyed fingerprint) is one stored card per tenant.
    await q.query(`CREATE UNIQUE INDEX stored_cards_tenant_fingerprint ON stored_cards (tenant_id, fingerprint)`);
    await q.query(`CREATE INDEX stored_cards_key_id ON stored_cards (key_id)`);

    await q.query(`
      CREATE TABLE card_tokens (
        id text PRIMARY KEY CHECK (id ~ '^tk_[A-Za-z0-9_-]{16,64}$'),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        stored_card_id text NOT NULL REFERENCES stored_cards(id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL CHECK (expires_at > created_at),
        used_at timestamptz
      )`);
    await q.query(`CREATE INDEX card_tokens_stored_card ON card_tokens (stored_card_id)`);

    await q.query(`
      CREATE TABLE hosted_card_sessions (
        id text PRIMARY KEY CHECK (id ~ '^hcs_[A-Za-z0-9_-]{16,64}$'),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        document_id text NOT NULL CHECK (document_id ~ '^([0-9]{11}|[0-9]{14})$'),
        url_key_hash bytea NOT NULL,
        page_key_hash bytea,
        parent_origin text,
        status text NOT NULL DEFAULT 'CREATED' CHECK (status IN ('CREATED', 'OPENED', 'USED')),
        stored_card_id text REFERENCES stored_cards(id),
        failed_attempts int NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        opened_at timestamptz,
        used_at timestamptz,
        CHECK (expires_at = created_at + interval '15 minutes'),
        CHECK ((status = 'CREATED') = (opened_at IS NULL)),
        CHECK ((status = 'USED') = (used_at IS NOT NULL AND stored_card_id IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX hosted_card_sessions_tenant ON hosted_card_sessions (tenant_id, created_at)`);

    await q.query(`
      CREATE TABLE three_ds_authentications (
        id text PRIMARY KEY CHECK (id ~ '^tds_[A-Za-z0-9_-]{16,64}$'),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        token_hash bytea NOT NULL,
        document_id text NOT NULL CHECK (document_id ~ '^([0-9]{11}|[0-9]{14})$'),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL DEFAULT 'BRL' CHECK (currency = 'BRL'),
        status text NOT NULL CHECK (status IN ('INITIALIZED', 'SETUP_COMPLETE', 'AUTHENTICATED', 'NOT_AUTHENTICATED',
          'UNAVAILABLE', 'CHALLENGE_PENDING', 'CHALLENGE_FAILED')),
        reference_id text,
        card_fingerprint text CHECK (card_fingerprint ~ '^[0-9a-f]{64}$'),
        brand text,
        last4 text CHECK (last4 ~ '^[0-9]{4}$'),
        request_id text,
        trans_status text CHECK (trans_status IN ('Y', 'N', 'U', 'C')),
        eci text,
        cavv text,
        ds_transaction_id text,
        acs_transaction_id text,
        challenge_url text,
        return_url text,
        payment_id text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX three_ds_token_hash ON three_ds_authentications (token_hash)`);
    await q.query(`CREATE UNIQUE INDEX three_ds_reference_id ON three_ds_authentications (reference_id) WHERE reference_id IS NOT NULL`);
    await q.query(
      `CREATE UNIQUE INDEX three_ds_ds_transaction_id ON three_ds_authentications (ds_transaction_id) WHERE ds_transaction_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX three_ds_request_id ON three_ds_authentications (tenant_id, request_id) WHERE request_id IS NOT NULL`,
    );
    // One payment per authentication.
    await q.query(`CREATE UNIQUE INDEX three_ds_payment_id ON three_ds_authentications (payment_id) WHERE payment_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE card_payments (
        id text PRIMARY KEY CHECK (id ~ '^pay_[A-Za-z0-9_-]{16,64}$'),
        tenant_id uuid NOT NULL REFERENCES tenants(id),
        stored_card_id text NOT NULL REFERENCES stored_cards(id),
        card_token_id text REFERENCES card_tokens(id),
        document_id text CHECK (document_id ~ '^([0-9]{11}|[0-9]{14})$'),
        amount_cents bigint NOT NULL CHECK (amount_cents > 0),
        currency text NOT NULL DEFAULT 'BRL' CHECK (currency = 'BRL'),
        installments smallint NOT NULL CHECK (installments BETWEEN 1 AND 12),
        capture_mode text NOT NULL CHECK (capture_mode IN ('SALE', 'PREAUTH')),
        status text NOT NULL CHECK (status IN ('PROCESSING', 'ACCEPTED', 'PREAUTH', 'CAPTURED', 'VOIDED',
          'AUTH_REJECTED', 'CHALLENGE_REJECTED', 'SETUP_REJECTED', 'FAILED')),
        security_code_presented boolean NOT NULL,
        three_ds_authentication_id text REFERENCES three_ds_authentications(id),
        three_ds_trans_status text CHECK (three_ds_trans_status IN ('Y', 'N', 'U')),
        eci text,
        acquirer_transaction_id text,
        authorization_code text,
        reason text,
        captured_amount_cents bigint CHECK (captured_amount_cents > 0),
        authorized_on date,
        description text CHECK (char_length(description) <= 200),
        request_id text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        captured_at timestamptz,
        voided_at timestamptz,
        CHECK (status <> 'CAPTURED' OR (capture_mode = 'PREAUTH' AND captured_at IS NOT NULL)),
        CHECK (status <> 'VOIDED' OR voided_at IS NOT NULL)
      )`);
    // A single-use token pays at most once; an authentication backs at most one payment.
    await q.query(`CREATE UNIQUE INDEX card_payments_card_token ON card_payments (card_token_id) WHERE card_token_id IS NOT NULL`);
    await q.query(
      `CREATE UNIQUE INDEX card_payments_three_ds ON card_payments (three_ds_authentication_id) WHERE three_ds_authentication_id IS NOT NULL`,
    );
    await q.query(
      `CREATE UNIQUE INDEX card_payments_acquirer_tx ON card_payments (acquirer_transaction_id) WHERE acquirer_transaction_id IS NOT NULL`,
    );
    await q.query(`CREATE INDEX card_payments_tenant_created ON card_payments (tenant_id, created_at DESC)`);
    await q.query(`CREATE INDEX card_payments_processing ON card_payments (created_at) WHERE status = 'PROCESSING'`);

    // The sandbox 3DS server (Cardinal-like): what it decided for each transaction. No card number.
    await q.query(`
      CREATE TABLE sandbox_three_ds_transactions (
        reference_id text PRIMARY KEY,
        merchant_document text NOT NULL,
        status text NOT NULL CHECK (status IN ('SETUP', 'FRICTIONLESS', 'CHALLENGE_PENDING', 'CHALLENGE_COMPLETE')),
        outcome text CHECK (outcome IN ('frictionless_success', 'frictionless_failure', 'challenge_success',
          'challenge_failure', 'unenrolled')),
        brand text,
        amount_cents bigint,
        device_data jsonb,
        acs_transaction_id text UNIQUE,
        ds_transaction_id text UNIQUE,
        trans_status text CHECK (trans_status IN ('Y', 'N', 'U', 'C')),
        eci text,
        cavv text,
        eci_after_challenge_y text,
        eci_after_challenge_n text,
        notification_url text,
        otp_attempts int NOT NULL DEFAULT 0 CHECK (otp_attempts BETWEEN 0 AND 3),
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE sandbox_three_ds_transactions`);
    await q.query(`DROP TABLE card_payments`);
    await q.query(`DROP TABLE three_ds_authentications`);
    await q.query(`DROP TABLE hosted_card_sessions`);
    await q.query(`DROP TABLE card_tokens`);
    await q.query(`DROP TABLE stored_cards`);
    await q.query(`DROP TABLE card_settings`);
  }
}
