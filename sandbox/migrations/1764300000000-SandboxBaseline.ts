import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sandbox app's tables, in its own schema (the connection's search_path), as they stood when
 * the sandbox moved out of the service's process: one baseline instead of the service's history
 * of them. Later changes to the sandbox's tables are migrations beside this one.
 */
export class SandboxBaseline1764300000000 implements MigrationInterface {
  name = 'SandboxBaseline1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
CREATE FUNCTION sandbox_cobr_history()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      DECLARE at timestamptz := now() + make_interval(secs => coalesce((SELECT offset_ms FROM platform_clock WHERE id = 1), 0) / 1000.0);
      BEGIN
        NEW.history := NEW.history || jsonb_build_array(jsonb_build_object(
          'status', CASE NEW.status WHEN 'RECEIVED' THEN 'CRIADA' WHEN 'ACTIVE' THEN 'ATIVA' WHEN 'COMPLETED' THEN 'CONCLUIDA'
                      WHEN 'REJECTED' THEN 'REJEITADA' WHEN 'EXPIRED' THEN 'EXPIRADA' ELSE 'CANCELADA' END,
          'data', to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')));
        RETURN NEW;
      END $function$

;
CREATE FUNCTION sandbox_rec_approved()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      BEGIN
        NEW.approved_at := now() + make_interval(secs => coalesce((SELECT offset_ms FROM platform_clock WHERE id = 1), 0) / 1000.0);
        RETURN NEW;
      END $function$

;

CREATE SEQUENCE sandbox_acquirer_boleto_our_number
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

CREATE TABLE sandbox_acquirer_boletos (
    id text NOT NULL,
    transaction_id text NOT NULL,
    request_hash text NOT NULL,
    merchant_id text NOT NULL,
    amount_cents bigint NOT NULL,
    due_date date NOT NULL,
    payer_name text NOT NULL,
    payer_tax_id text NOT NULL,
    our_number bigint NOT NULL,
    barcode text NOT NULL,
    digitable_line text NOT NULL,
    pix_txid text NOT NULL,
    pix_br_code text NOT NULL,
    status text NOT NULL,
    paid_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    psp_reference text,
    merchant_reference text,
    CONSTRAINT sandbox_acquirer_boletos_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_acquirer_boletos_barcode_check CHECK ((barcode ~ '^[0-9]{44}$'::text)),
    CONSTRAINT sandbox_acquirer_boletos_digitable_line_check CHECK ((digitable_line ~ '^[0-9]{47}$'::text)),
    CONSTRAINT sandbox_acquirer_boletos_status_check CHECK ((status = ANY (ARRAY['PENDING'::text, 'PAID'::text, 'PAID_PIX'::text, 'EXPIRED'::text, 'CANCELED'::text])))
);

CREATE TABLE sandbox_acquirer_card_transactions (
    id text NOT NULL,
    transaction_id text NOT NULL,
    request_hash text NOT NULL,
    merchant_id text NOT NULL,
    amount_cents bigint NOT NULL,
    captured_cents bigint,
    installments integer NOT NULL,
    capture_mode text NOT NULL,
    status text NOT NULL,
    reason text,
    authorization_code text,
    brand text NOT NULL,
    last4 text NOT NULL,
    business_day date NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    psp_reference text,
    merchant_reference text,
    CONSTRAINT sandbox_acquirer_card_transactions_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_acquirer_card_transactions_capture_mode_check CHECK ((capture_mode = ANY (ARRAY['SALE'::text, 'PREAUTH'::text]))),
    CONSTRAINT sandbox_acquirer_card_transactions_captured_cents_check CHECK (((captured_cents IS NULL) OR (captured_cents > 0))),
    CONSTRAINT sandbox_acquirer_card_transactions_installments_check CHECK (((installments >= 1) AND (installments <= 12))),
    CONSTRAINT sandbox_acquirer_card_transactions_last4_check CHECK ((last4 ~ '^[0-9]{4}$'::text)),
    CONSTRAINT sandbox_acquirer_card_transactions_status_check CHECK ((status = ANY (ARRAY['ACCEPTED'::text, 'PREAUTH'::text, 'CAPTURED'::text, 'VOIDED'::text, 'AUTH_REJECTED'::text, 'FAILED'::text])))
);

CREATE TABLE sandbox_acquirer_disputes (
    id text NOT NULL,
    card_transaction_id text NOT NULL,
    face text NOT NULL,
    sequence text NOT NULL,
    amount_cents bigint NOT NULL,
    reason_code text NOT NULL,
    stage text,
    plan text[] NOT NULL,
    defend_by timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT sandbox_acquirer_disputes_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_acquirer_disputes_face_check CHECK ((face = ANY (ARRAY['generic'::text, 'adyen'::text])))
);

CREATE TABLE sandbox_acquirer_notifications (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    payload jsonb NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    delivered_at timestamp with time zone,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE sandbox_acquirer_pix_charges (
    txid text NOT NULL,
    transaction_id text NOT NULL,
    request_hash text NOT NULL,
    merchant_id text NOT NULL,
    amount_cents bigint NOT NULL,
    payer_name text,
    br_code text NOT NULL,
    status text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    paid_at timestamp with time zone,
    settle_at timestamp with time zone,
    settled_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    face text DEFAULT 'acquirer'::text NOT NULL,
    kind text DEFAULT 'cob'::text NOT NULL,
    revisao integer DEFAULT 0 NOT NULL,
    expiracao_s integer,
    due_date date,
    validade_apos_vencimento integer,
    devedor jsonb,
    chave text,
    solicitacao_pagador text,
    info_adicionais jsonb,
    loc_id bigint,
    boleto_id text,
    removed_by text,
    CONSTRAINT sandbox_acquirer_pix_charges_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_acquirer_pix_charges_expiracao_s_check CHECK (((expiracao_s IS NULL) OR (expiracao_s > 0))),
    CONSTRAINT sandbox_acquirer_pix_charges_face_check CHECK ((face = ANY (ARRAY['acquirer'::text, 'psp'::text]))),
    CONSTRAINT sandbox_acquirer_pix_charges_kind_check CHECK ((kind = ANY (ARRAY['cob'::text, 'cobv'::text]))),
    CONSTRAINT sandbox_acquirer_pix_charges_psp_ck CHECK (((face = 'acquirer'::text) OR ((chave IS NOT NULL) AND ((kind = 'cob'::text) = (expiracao_s IS NOT NULL)) AND ((kind = 'cobv'::text) = (due_date IS NOT NULL))))),
    CONSTRAINT sandbox_acquirer_pix_charges_removed_by_check CHECK (((removed_by IS NULL) OR (removed_by = ANY (ARRAY['USUARIO_RECEBEDOR'::text, 'PSP'::text])))),
    CONSTRAINT sandbox_acquirer_pix_charges_status_check CHECK ((status = ANY (ARRAY['PENDING'::text, 'AUTHORIZED'::text, 'SETTLED'::text, 'EXPIRED'::text, 'REMOVED'::text]))),
    CONSTRAINT sandbox_acquirer_pix_charges_txid_check CHECK ((txid ~ '^[A-Za-z0-9]{1,35}$'::text)),
    CONSTRAINT sandbox_acquirer_pix_charges_validade_apos_vencimento_check CHECK (((validade_apos_vencimento IS NULL) OR (validade_apos_vencimento >= 0)))
);

CREATE TABLE sandbox_acquirer_refunds (
    id text NOT NULL,
    card_transaction_id text NOT NULL,
    face text NOT NULL,
    kind text NOT NULL,
    request_key text NOT NULL,
    request_hash text NOT NULL,
    psp_reference text,
    merchant_reference text,
    amount_cents bigint NOT NULL,
    status text NOT NULL,
    reason text,
    plan text[] DEFAULT '{}'::text[] NOT NULL,
    steps_played integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT sandbox_acquirer_refunds_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_acquirer_refunds_face_check CHECK ((face = ANY (ARRAY['generic'::text, 'adyen'::text]))),
    CONSTRAINT sandbox_acquirer_refunds_kind_check CHECK ((kind = ANY (ARRAY['REFUND'::text, 'REVERSAL_REFUND'::text, 'REVERSAL_CANCEL'::text]))),
    CONSTRAINT sandbox_acquirer_refunds_status_check CHECK ((status = ANY (ARRAY['PENDING'::text, 'SUCCEEDED'::text, 'FAILED'::text, 'REVERSED'::text])))
);

CREATE TABLE sandbox_adyen_three_ds (
    reference_id text NOT NULL,
    psp_reference text NOT NULL,
    merchant_reference text NOT NULL,
    decision jsonb NOT NULL,
    amount_cents bigint NOT NULL,
    return_url text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE sandbox_adyen_webhooks (
    id uuid NOT NULL,
    item jsonb NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    delivered_at timestamp with time zone,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE sandbox_bank_billings (
    id_tx text NOT NULL,
    billing_id text,
    recurrence_id text NOT NULL,
    status text NOT NULL,
    amount_cents bigint,
    due_date date,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    id_rec text,
    ajuste_dia_util boolean,
    receiver jsonb,
    psp_created_at timestamp with time zone,
    attempt_date date,
    tentativas jsonb DEFAULT '[]'::jsonb NOT NULL,
    encerramento jsonb,
    history jsonb DEFAULT '[]'::jsonb NOT NULL,
    CONSTRAINT sandbox_bank_billings_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_bank_billings_check CHECK (((amount_cents IS NULL) = (due_date IS NULL))),
    CONSTRAINT sandbox_bank_billings_check1 CHECK (((amount_cents IS NOT NULL) OR (status = 'CANCELLED_RECEIVER'::text))),
    CONSTRAINT sandbox_bank_billings_status_check CHECK ((status = ANY (ARRAY['RECEIVED'::text, 'ACTIVE'::text, 'COMPLETED'::text, 'REJECTED'::text, 'EXPIRED'::text, 'CANCELLED_RECEIVER'::text, 'CANCELLED_PAYER'::text])))
);

CREATE TABLE sandbox_bank_events (
    id bigint NOT NULL,
    event_type text NOT NULL,
    id_tx text NOT NULL,
    payload jsonb NOT NULL,
    delivered_at timestamp with time zone,
    attempts integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE sandbox_bank_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE sandbox_bank_events_id_seq OWNED BY sandbox_bank_events.id;

CREATE TABLE sandbox_bank_recurrences (
    recurrence_id text NOT NULL,
    id_tx text NOT NULL,
    receiver_id text NOT NULL,
    receiver_name text NOT NULL,
    status text NOT NULL,
    amount_cents bigint NOT NULL,
    periodicity text NOT NULL,
    first_due_date date NOT NULL,
    expiration_date date,
    day_adjustment text NOT NULL,
    payer_name text NOT NULL,
    payer_tax_id text NOT NULL,
    description text,
    authorization_deadline date NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    id_rec text,
    contrato text,
    politica_retentativa text,
    loc_id bigint,
    approved_at timestamp with time zone,
    CONSTRAINT sandbox_bank_recurrences_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_bank_recurrences_politica_retentativa_check CHECK ((politica_retentativa = ANY (ARRAY['NAO_PERMITE'::text, 'PERMITE_3R_7D'::text]))),
    CONSTRAINT sandbox_bank_recurrences_status_check CHECK ((status = ANY (ARRAY['PENDING'::text, 'ACCEPTED'::text, 'ACTIVE'::text, 'REJECTED'::text, 'EXPIRED'::text, 'CANCELLED_RECEIVER'::text, 'CANCELLED_PAYER'::text])))
);

CREATE TABLE sandbox_psp_devolucoes (
    end_to_end_id text NOT NULL,
    id text NOT NULL,
    rtr_id text NOT NULL,
    amount_cents bigint NOT NULL,
    natureza text NOT NULL,
    descricao text,
    request_hash text,
    status text NOT NULL,
    outcome text NOT NULL,
    motivo text,
    ticks_left integer DEFAULT 0 NOT NULL,
    requested_at timestamp with time zone NOT NULL,
    settled_at timestamp with time zone,
    CONSTRAINT sandbox_psp_devolucoes_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_psp_devolucoes_check CHECK (((status = 'EM_PROCESSAMENTO'::text) = (settled_at IS NULL))),
    CONSTRAINT sandbox_psp_devolucoes_descricao_check CHECK (((descricao IS NULL) OR (length(descricao) <= 140))),
    CONSTRAINT sandbox_psp_devolucoes_id_check CHECK ((id ~ '^[a-zA-Z0-9]{1,35}$'::text)),
    CONSTRAINT sandbox_psp_devolucoes_motivo_check CHECK (((motivo IS NULL) OR (length(motivo) <= 140))),
    CONSTRAINT sandbox_psp_devolucoes_natureza_check CHECK ((natureza = ANY (ARRAY['ORIGINAL'::text, 'RETIRADA'::text, 'MED_OPERACIONAL'::text, 'MED_FRAUDE'::text, 'MED_PIX_AUTOMATICO'::text]))),
    CONSTRAINT sandbox_psp_devolucoes_outcome_check CHECK ((outcome = ANY (ARRAY['DEVOLVIDO'::text, 'NAO_REALIZADO'::text]))),
    CONSTRAINT sandbox_psp_devolucoes_rtr_id_check CHECK ((rtr_id ~ '^[A-Za-z0-9]{32}$'::text)),
    CONSTRAINT sandbox_psp_devolucoes_status_check CHECK ((status = ANY (ARRAY['EM_PROCESSAMENTO'::text, 'DEVOLVIDO'::text, 'NAO_REALIZADO'::text]))),
    CONSTRAINT sandbox_psp_devolucoes_ticks_left_check CHECK ((ticks_left >= 0))
);

CREATE TABLE sandbox_psp_locations (
    id bigint NOT NULL,
    token text NOT NULL,
    tipo_cob text NOT NULL,
    txid text,
    client_id text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT sandbox_psp_locations_tipo_cob_check CHECK ((tipo_cob = ANY (ARRAY['cob'::text, 'cobv'::text]))),
    CONSTRAINT sandbox_psp_locations_token_check CHECK ((token ~ '^[a-f0-9]{20,32}$'::text))
);

CREATE SEQUENCE sandbox_psp_locations_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE sandbox_psp_locations_id_seq OWNED BY sandbox_psp_locations.id;

CREATE TABLE sandbox_psp_locrec (
    id bigint NOT NULL,
    token text NOT NULL,
    id_rec text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE sandbox_psp_locrec_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE sandbox_psp_locrec_id_seq OWNED BY sandbox_psp_locrec.id;

CREATE TABLE sandbox_psp_payouts (
    end_to_end_id text NOT NULL,
    amount_cents bigint NOT NULL,
    chave text,
    account jsonb,
    descricao text,
    status text NOT NULL,
    motivo text,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT sandbox_psp_payouts_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_psp_payouts_check CHECK (((chave IS NULL) <> (account IS NULL))),
    CONSTRAINT sandbox_psp_payouts_descricao_check CHECK (((descricao IS NULL) OR (length(descricao) <= 140))),
    CONSTRAINT sandbox_psp_payouts_end_to_end_id_check CHECK ((end_to_end_id ~ '^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$'::text)),
    CONSTRAINT sandbox_psp_payouts_status_check CHECK ((status = ANY (ARRAY['REALIZADO'::text, 'NAO_REALIZADO'::text])))
);

CREATE TABLE sandbox_psp_pix (
    end_to_end_id text NOT NULL,
    txid text NOT NULL,
    chave text NOT NULL,
    amount_cents bigint NOT NULL,
    paid_at timestamp with time zone NOT NULL,
    info_pagador text,
    origin text DEFAULT 'cob'::text NOT NULL,
    CONSTRAINT sandbox_psp_pix_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT sandbox_psp_pix_end_to_end_id_check CHECK ((end_to_end_id ~ '^[A-Za-z0-9]{32}$'::text)),
    CONSTRAINT sandbox_psp_pix_origin_check CHECK ((origin = ANY (ARRAY['cob'::text, 'cobr'::text])))
);

CREATE TABLE sandbox_psp_pix_callbacks (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    end_to_end_id text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    delivered_at timestamp with time zone,
    last_error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE sandbox_psp_pix_webhooks (
    chave text NOT NULL,
    client_id text NOT NULL,
    webhook_url text NOT NULL,
    created_at timestamp with time zone NOT NULL
);

CREATE TABLE sandbox_psp_solicrec (
    id_solic_rec text NOT NULL,
    id_rec text NOT NULL,
    destinatario jsonb NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    cancelled_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE sandbox_psp_webhooks (
    kind text NOT NULL,
    client_id text NOT NULL,
    webhook_url text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT sandbox_psp_webhooks_kind_check CHECK ((kind = ANY (ARRAY['rec'::text, 'cobr'::text])))
);

CREATE TABLE sandbox_three_ds_transactions (
    reference_id text NOT NULL,
    merchant_document text NOT NULL,
    status text NOT NULL,
    outcome text,
    brand text,
    amount_cents bigint,
    device_data jsonb,
    acs_transaction_id text,
    ds_transaction_id text,
    trans_status text,
    eci text,
    cavv text,
    eci_after_challenge_y text,
    eci_after_challenge_n text,
    notification_url text,
    otp_attempts integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT sandbox_three_ds_transactions_otp_attempts_check CHECK (((otp_attempts >= 0) AND (otp_attempts <= 3))),
    CONSTRAINT sandbox_three_ds_transactions_outcome_check CHECK ((outcome = ANY (ARRAY['frictionless_success'::text, 'frictionless_failure'::text, 'challenge_success'::text, 'challenge_failure'::text, 'unenrolled'::text]))),
    CONSTRAINT sandbox_three_ds_transactions_status_check CHECK ((status = ANY (ARRAY['SETUP'::text, 'FRICTIONLESS'::text, 'CHALLENGE_PENDING'::text, 'CHALLENGE_COMPLETE'::text]))),
    CONSTRAINT sandbox_three_ds_transactions_trans_status_check CHECK ((trans_status = ANY (ARRAY['Y'::text, 'N'::text, 'U'::text, 'C'::text])))
);

ALTER TABLE ONLY sandbox_bank_events ALTER COLUMN id SET DEFAULT nextval('sandbox_bank_events_id_seq'::regclass);

ALTER TABLE ONLY sandbox_psp_locations ALTER COLUMN id SET DEFAULT nextval('sandbox_psp_locations_id_seq'::regclass);

ALTER TABLE ONLY sandbox_psp_locrec ALTER COLUMN id SET DEFAULT nextval('sandbox_psp_locrec_id_seq'::regclass);

ALTER TABLE ONLY sandbox_acquirer_boletos
    ADD CONSTRAINT sandbox_acquirer_boletos_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_acquirer_card_transactions
    ADD CONSTRAINT sandbox_acquirer_card_transactions_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_acquirer_disputes
    ADD CONSTRAINT sandbox_acquirer_disputes_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_acquirer_notifications
    ADD CONSTRAINT sandbox_acquirer_notifications_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_acquirer_pix_charges
    ADD CONSTRAINT sandbox_acquirer_pix_charges_loc_uq UNIQUE (loc_id);

ALTER TABLE ONLY sandbox_acquirer_pix_charges
    ADD CONSTRAINT sandbox_acquirer_pix_charges_pkey PRIMARY KEY (txid);

ALTER TABLE ONLY sandbox_acquirer_refunds
    ADD CONSTRAINT sandbox_acquirer_refunds_key_uq UNIQUE (face, request_key);

ALTER TABLE ONLY sandbox_acquirer_refunds
    ADD CONSTRAINT sandbox_acquirer_refunds_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_adyen_three_ds
    ADD CONSTRAINT sandbox_adyen_three_ds_pkey PRIMARY KEY (reference_id);

ALTER TABLE ONLY sandbox_adyen_three_ds
    ADD CONSTRAINT sandbox_adyen_three_ds_psp_reference_key UNIQUE (psp_reference);

ALTER TABLE ONLY sandbox_adyen_webhooks
    ADD CONSTRAINT sandbox_adyen_webhooks_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_bank_billings
    ADD CONSTRAINT sandbox_bank_billings_pkey PRIMARY KEY (id_tx);

ALTER TABLE ONLY sandbox_bank_events
    ADD CONSTRAINT sandbox_bank_events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_bank_recurrences
    ADD CONSTRAINT sandbox_bank_recurrences_id_tx_key UNIQUE (id_tx);

ALTER TABLE ONLY sandbox_bank_recurrences
    ADD CONSTRAINT sandbox_bank_recurrences_pkey PRIMARY KEY (recurrence_id);

ALTER TABLE ONLY sandbox_psp_devolucoes
    ADD CONSTRAINT sandbox_psp_devolucoes_pkey PRIMARY KEY (end_to_end_id, id);

ALTER TABLE ONLY sandbox_psp_devolucoes
    ADD CONSTRAINT sandbox_psp_devolucoes_rtr_id_key UNIQUE (rtr_id);

ALTER TABLE ONLY sandbox_psp_locations
    ADD CONSTRAINT sandbox_psp_locations_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_psp_locations
    ADD CONSTRAINT sandbox_psp_locations_token_key UNIQUE (token);

ALTER TABLE ONLY sandbox_psp_locations
    ADD CONSTRAINT sandbox_psp_locations_txid_key UNIQUE (txid);

ALTER TABLE ONLY sandbox_psp_locrec
    ADD CONSTRAINT sandbox_psp_locrec_id_rec_key UNIQUE (id_rec);

ALTER TABLE ONLY sandbox_psp_locrec
    ADD CONSTRAINT sandbox_psp_locrec_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_psp_locrec
    ADD CONSTRAINT sandbox_psp_locrec_token_key UNIQUE (token);

ALTER TABLE ONLY sandbox_psp_payouts
    ADD CONSTRAINT sandbox_psp_payouts_pkey PRIMARY KEY (end_to_end_id);

ALTER TABLE ONLY sandbox_psp_pix_callbacks
    ADD CONSTRAINT sandbox_psp_pix_callbacks_pkey PRIMARY KEY (id);

ALTER TABLE ONLY sandbox_psp_pix
    ADD CONSTRAINT sandbox_psp_pix_pkey PRIMARY KEY (end_to_end_id);

ALTER TABLE ONLY sandbox_psp_pix_webhooks
    ADD CONSTRAINT sandbox_psp_pix_webhooks_pkey PRIMARY KEY (chave);

ALTER TABLE ONLY sandbox_psp_solicrec
    ADD CONSTRAINT sandbox_psp_solicrec_pkey PRIMARY KEY (id_solic_rec);

ALTER TABLE ONLY sandbox_psp_webhooks
    ADD CONSTRAINT sandbox_psp_webhooks_pkey PRIMARY KEY (kind, client_id);

ALTER TABLE ONLY sandbox_three_ds_transactions
    ADD CONSTRAINT sandbox_three_ds_transactions_acs_transaction_id_key UNIQUE (acs_transaction_id);

ALTER TABLE ONLY sandbox_three_ds_transactions
    ADD CONSTRAINT sandbox_three_ds_transactions_ds_transaction_id_key UNIQUE (ds_transaction_id);

ALTER TABLE ONLY sandbox_three_ds_transactions
    ADD CONSTRAINT sandbox_three_ds_transactions_pkey PRIMARY KEY (reference_id);

CREATE UNIQUE INDEX sandbox_acquirer_boletos_our_number_uq ON sandbox_acquirer_boletos USING btree (our_number);

CREATE INDEX sandbox_acquirer_boletos_pending ON sandbox_acquirer_boletos USING btree (due_date) WHERE (status = 'PENDING'::text);

CREATE UNIQUE INDEX sandbox_acquirer_boletos_pix_txid_uq ON sandbox_acquirer_boletos USING btree (pix_txid);

CREATE UNIQUE INDEX sandbox_acquirer_boletos_psp_uq ON sandbox_acquirer_boletos USING btree (psp_reference);

CREATE UNIQUE INDEX sandbox_acquirer_boletos_txn_uq ON sandbox_acquirer_boletos USING btree (transaction_id);

CREATE UNIQUE INDEX sandbox_acquirer_card_transactions_psp_uq ON sandbox_acquirer_card_transactions USING btree (psp_reference);

CREATE UNIQUE INDEX sandbox_acquirer_card_transactions_txn_uq ON sandbox_acquirer_card_transactions USING btree (transaction_id);

CREATE INDEX sandbox_acquirer_disputes_due_ix ON sandbox_acquirer_disputes USING btree (created_at) WHERE (cardinality(plan) > 0);

CREATE INDEX sandbox_acquirer_disputes_txn_ix ON sandbox_acquirer_disputes USING btree (card_transaction_id);

CREATE INDEX sandbox_acquirer_notifications_due ON sandbox_acquirer_notifications USING btree (next_attempt_at) WHERE (delivered_at IS NULL);

CREATE INDEX sandbox_acquirer_pix_authorized ON sandbox_acquirer_pix_charges USING btree (settle_at) WHERE (status = 'AUTHORIZED'::text);

CREATE INDEX sandbox_acquirer_pix_charges_boleto_ix ON sandbox_acquirer_pix_charges USING btree (boleto_id) WHERE (boleto_id IS NOT NULL);

CREATE INDEX sandbox_acquirer_pix_charges_psp_created_ix ON sandbox_acquirer_pix_charges USING btree (created_at) WHERE (face = 'psp'::text);

CREATE UNIQUE INDEX sandbox_acquirer_pix_charges_txn_uq ON sandbox_acquirer_pix_charges USING btree (transaction_id);

CREATE INDEX sandbox_acquirer_pix_pending ON sandbox_acquirer_pix_charges USING btree (expires_at) WHERE (status = 'PENDING'::text);

CREATE INDEX sandbox_acquirer_refunds_due_ix ON sandbox_acquirer_refunds USING btree (created_at) WHERE (cardinality(plan) > 0);

CREATE INDEX sandbox_acquirer_refunds_txn_ix ON sandbox_acquirer_refunds USING btree (card_transaction_id);

CREATE INDEX sandbox_adyen_webhooks_due_ix ON sandbox_adyen_webhooks USING btree (next_attempt_at) WHERE (delivered_at IS NULL);

CREATE INDEX sandbox_bank_billings_cobr_attempt_ix ON sandbox_bank_billings USING btree (attempt_date) WHERE ((id_rec IS NOT NULL) AND (status = 'ACTIVE'::text));

CREATE INDEX sandbox_bank_billings_cobr_created_ix ON sandbox_bank_billings USING btree (psp_created_at, id_tx) WHERE (id_rec IS NOT NULL);

CREATE INDEX sandbox_bank_billings_open_ix ON sandbox_bank_billings USING btree (due_date) WHERE (status = ANY (ARRAY['RECEIVED'::text, 'ACTIVE'::text]));

CREATE INDEX sandbox_bank_billings_recurrence_ix ON sandbox_bank_billings USING btree (recurrence_id);

CREATE INDEX sandbox_bank_events_undelivered_ix ON sandbox_bank_events USING btree (id) WHERE (delivered_at IS NULL);

CREATE UNIQUE INDEX sandbox_bank_recurrences_id_rec_ux ON sandbox_bank_recurrences USING btree (id_rec) WHERE (id_rec IS NOT NULL);

CREATE INDEX sandbox_bank_recurrences_pending_ix ON sandbox_bank_recurrences USING btree (authorization_deadline) WHERE (status = 'PENDING'::text);

CREATE INDEX sandbox_bank_recurrences_psp_created_ix ON sandbox_bank_recurrences USING btree (created_at) WHERE (id_rec IS NOT NULL);

CREATE INDEX sandbox_psp_devolucoes_processing_ix ON sandbox_psp_devolucoes USING btree (requested_at) WHERE (status = 'EM_PROCESSAMENTO'::text);

CREATE INDEX sandbox_psp_pix_callbacks_due_ix ON sandbox_psp_pix_callbacks USING btree (next_attempt_at) WHERE (delivered_at IS NULL);

CREATE INDEX sandbox_psp_pix_paid_ix ON sandbox_psp_pix USING btree (paid_at);

CREATE UNIQUE INDEX sandbox_psp_pix_txid_uq ON sandbox_psp_pix USING btree (txid);

CREATE INDEX sandbox_psp_solicrec_rec_ix ON sandbox_psp_solicrec USING btree (id_rec);

CREATE TRIGGER sandbox_cobr_history BEFORE UPDATE OF status ON sandbox_bank_billings FOR EACH ROW WHEN (((new.id_rec IS NOT NULL) AND (new.status IS DISTINCT FROM old.status))) EXECUTE FUNCTION sandbox_cobr_history();

CREATE TRIGGER sandbox_rec_approved BEFORE UPDATE OF status ON sandbox_bank_recurrences FOR EACH ROW WHEN (((new.id_rec IS NOT NULL) AND (old.status = 'PENDING'::text) AND (new.status = ANY (ARRAY['ACCEPTED'::text, 'ACTIVE'::text])))) EXECUTE FUNCTION sandbox_rec_approved();

ALTER TABLE ONLY sandbox_acquirer_disputes
    ADD CONSTRAINT sandbox_acquirer_disputes_card_transaction_id_fkey FOREIGN KEY (card_transaction_id) REFERENCES sandbox_acquirer_card_transactions(id);

ALTER TABLE ONLY sandbox_acquirer_refunds
    ADD CONSTRAINT sandbox_acquirer_refunds_card_transaction_id_fkey FOREIGN KEY (card_transaction_id) REFERENCES sandbox_acquirer_card_transactions(id);

ALTER TABLE ONLY sandbox_psp_devolucoes
    ADD CONSTRAINT sandbox_psp_devolucoes_end_to_end_id_fkey FOREIGN KEY (end_to_end_id) REFERENCES sandbox_psp_pix(end_to_end_id);

ALTER TABLE ONLY sandbox_psp_pix_callbacks
    ADD CONSTRAINT sandbox_psp_pix_callbacks_end_to_end_id_fkey FOREIGN KEY (end_to_end_id) REFERENCES sandbox_psp_pix(end_to_end_id);

ALTER TABLE ONLY sandbox_psp_solicrec
    ADD CONSTRAINT sandbox_psp_solicrec_id_rec_fkey FOREIGN KEY (id_rec) REFERENCES sandbox_bank_recurrences(recurrence_id);

CREATE TABLE platform_clock (id int PRIMARY KEY CHECK (id = 1), offset_ms bigint NOT NULL DEFAULT 0);
`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP TABLE IF EXISTS platform_clock, sandbox_three_ds_transactions, sandbox_psp_webhooks, sandbox_psp_solicrec, sandbox_psp_pix_webhooks, sandbox_psp_pix_callbacks, sandbox_psp_pix, sandbox_psp_payouts, sandbox_psp_locrec, sandbox_psp_locations, sandbox_psp_devolucoes, sandbox_bank_recurrences, sandbox_bank_events, sandbox_bank_billings, sandbox_adyen_webhooks, sandbox_adyen_three_ds, sandbox_acquirer_refunds, sandbox_acquirer_pix_charges, sandbox_acquirer_notifications, sandbox_acquirer_disputes, sandbox_acquirer_card_transactions, sandbox_acquirer_boletos CASCADE`,
    );
    await q.query(`DROP FUNCTION IF EXISTS sandbox_cobr_history(), sandbox_rec_approved()`);
    await q.query(
      `DROP SEQUENCE IF EXISTS sandbox_acquirer_boleto_our_number, sandbox_bank_events_id_seq, sandbox_psp_locations_id_seq, sandbox_psp_locrec_id_seq`,
    );
  }
}
