import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AsText, Present, Row, Tx, pool, rows, transaction } from '../../../kernel/platform/database/sql';
import { SandboxAcquirerConfig } from '../acquirer/sandbox-acquirer.config';

/** A cobr as the sandbox PSP keeps it: a `sandbox_bank_billings` row with `id_rec` set. */
export interface CobrRow {
  txid: string;
  idRec: string;
  recurrenceId: string;
  status: string;
  amountCents: number;
  dueDate: string;
  ajusteDiaUtil: boolean;
  receiver: { conta: string; tipoConta: string; agencia?: string };
  createdAt: Date;
  attemptDate: string | null;
  tentativas: Attempt[];
  encerramento: Record<string, unknown> | null;
  history: { status: string; data: string }[];
}

export interface Attempt {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG';
  status: string;
  endToEndId: string;
  atualizacao: { status: string; data: string }[];
  rejeicao?: { codigo: string; descricao: string };
}

/** The recurrence a cobr refers to, as the PSP face holds it. */
export interface RecOfCobr {
  recurrenceId: string;
  idRec: string;
  status: string;
  receiverName: string;
  payerTaxId: string;
  payerName: string;
}

const COLS = `id_tx, id_rec, recurrence_id, status, amount_cents, due_date::text AS due_date, ajuste_dia_util, receiver, psp_created_at,
  attempt_date::text AS attempt_date, tentativas, encerramento, history`;

/** A billing the API Pix face created: its cobr columns are set (the sandbox bank's own billings leave them NULL). */
type BillingRow = AsText<
  Present<Row<'sandbox_bank_billings'>, 'id_rec' | 'ajuste_dia_util' | 'receiver' | 'psp_created_at' | 'due_date'>,
  'due_date' | 'attempt_date'
>;

function cobr(r: BillingRow): CobrRow {
  return {
    txid: r.id_tx,
    idRec: r.id_rec,
    recurrenceId: r.recurrence_id,
    status: r.status as CobrRow['status'],
    amountCents: Number(r.amount_cents),
    dueDate: r.due_date,
    ajusteDiaUtil: r.ajuste_dia_util,
    receiver: r.receiver as CobrRow['receiver'],
    createdAt: r.psp_created_at,
    attemptDate: r.attempt_date ?? null,
    tentativas: (r.tentativas as Attempt[] | null) ?? [],
    encerramento: (r.encerramento as CobrRow['encerramento']) ?? null,
    history: (r.history as CobrRow['history'] | null) ?? [],
  };
}

export { rows };

/** The sandbox PSP's cobr books (over the sandbox bank's tables). Status changes are conditional updates. */
@Injectable()
export class SandboxCobrStore {
  constructor(
    private readonly ds: DataSource,
    private readonly acquirer: SandboxAcquirerConfig,
  ) {}

  /**
   * A paid attempt is a Pix the receiver received: kept with the received Pix (`GET /pix/{e2eid}`,
   * `GET /pix`), origin `cobr`, so it can be given back (devolução, MED) like any other. No Pix
   * callback: the cobr callback tells the receiver it was paid.
   */
  async recordPaidPix(m: Tx, p: { endToEndId: string; txid: string; amountCents: number; at: string }): Promise<void> {
    await rows(
      m,
      `INSERT INTO sandbox_psp_pix (end_to_end_id, txid, chave, amount_cents, paid_at, origin) VALUES ($1, $2, $3, $4, $5, 'cobr')
       ON CONFLICT DO NOTHING`,
      [p.endToEndId, p.txid, this.acquirer.pixKey, p.amountCents, p.at],
    );
  }

  transaction<T>(fn: (m: Tx) => Promise<T>): Promise<T> {
    return transaction(this.ds, fn);
  }

  async find(txid: string, m: Tx = pool(this.ds)): Promise<CobrRow | null> {
    const r = await rows<BillingRow>(m, `SELECT ${COLS} FROM sandbox_bank_billings WHERE id_tx = $1 AND id_rec IS NOT NULL`, [txid]);
    return r[0] ? cobr(r[0]) : null;
  }

  /** Any billing (either face) with this id: a txid is unique across the bank. */
  async exists(txid: string, m: Tx = pool(this.ds)): Promise<boolean> {
    return (await rows(m, `SELECT 1 FROM sandbox_bank_billings WHERE id_tx = $1`, [txid])).length > 0;
  }

  /**
   * `PUT /cobr/{txid}` in one statement: finds the rec by idRec and, when it is approved, inserts
   * the cobr (CRIADA) and makes the rec ACTIVE like the service face's first billing does.
   * `rec` null: no such rec; `cobr` null with a rec: not approved, or the txid is in use.
   */
  async insertForRec(c: {
    txid: string;
    idRec: string;
    amountCents: number;
    dueDate: string;
    ajusteDiaUtil: boolean;
    receiver: Record<string, string>;
    createdAt: Date;
  }): Promise<{ rec: { status: string } | null; cobr: CobrRow | null }> {
    const r = await rows(
      pool(this.ds),
      `WITH rec AS (SELECT recurrence_id, status, receiver_name FROM sandbox_bank_recurrences WHERE id_rec = $2),
       ins AS (
         INSERT INTO sandbox_bank_billings (id_tx, recurrence_id, status, amount_cents, due_date, id_rec, ajuste_dia_util, receiver, psp_created_at, attempt_date, history)
         SELECT $1, rec.recurrence_id, 'RECEIVED', $3, $4, $2, $5, $6::jsonb || jsonb_build_object('nome', left(rec.receiver_name, 140)), $7, $4,
                jsonb_build_array(jsonb_build_object('status', 'CRIADA', 'data', $8::text))
         FROM rec WHERE rec.status IN ('ACCEPTED','ACTIVE')
         ON CONFLICT (id_tx) DO NOTHING RETURNING ${COLS}),
       act AS (UPDATE sandbox_bank_recurrences SET status = 'ACTIVE', updated_at = now() WHERE recurrence_id IN (SELECT recurrence_id FROM ins) AND status = 'ACCEPTED')
       SELECT (SELECT status FROM rec) AS rec_status, (SELECT row_to_json(ins) FROM ins) AS cobr`,
      [c.txid, c.idRec, c.amountCents, c.dueDate, c.ajusteDiaUtil, JSON.stringify(c.receiver), c.createdAt, c.createdAt.toISOString()],
    );
    const x = r[0];
    return {
      rec: x.rec_status ? { status: x.rec_status } : null,
      cobr: x.cobr ? cobr({ ...x.cobr, psp_created_at: new Date(x.cobr.psp_created_at) }) : null,
    };
  }

  /** Conditional move of one cobr (with what it ended by); null when it was not in one of `from`. */
  async move(
    m: Tx,
    txid: string,
    to: string,
    from: string[],
    set: { encerramento?: unknown; tentativas?: Attempt[]; attemptDate?: string | null } = {},
  ): Promise<CobrRow | null> {
    const r = await rows<BillingRow>(
      m,
      `UPDATE sandbox_bank_billings SET status = $2, updated_at = now(),
         encerramento = COALESCE($4::jsonb, encerramento), tentativas = COALESCE($5::jsonb, tentativas),
         attempt_date = CASE WHEN $6 THEN $7::date ELSE attempt_date END
       WHERE id_tx = $1 AND id_rec IS NOT NULL AND status = ANY($3) RETURNING ${COLS}`,
      [
        txid,
        to,
        from,
        set.encerramento === undefined ? null : JSON.stringify(set.encerramento),
        set.tentativas ? JSON.stringify(set.tentativas) : null,
        set.attemptDate !== undefined,
        set.attemptDate ?? null,
      ],
    );
    return r[0] ? cobr(r[0]) : null;
  }

  /** Cobrs created between `inicio` and `fim` (the sandbox clock's time), oldest first: one page and the total. */
  async list(q: {
    inicio: Date;
    fim: Date;
    idRec?: string;
    status?: string;
    page: number;
    perPage: number;
  }): Promise<{ items: CobrRow[]; total: number }> {
    const where = `id_rec IS NOT NULL AND psp_created_at >= $1 AND psp_created_at <= $2 AND ($3::text IS NULL OR id_rec = $3)`;
    const params = [q.inicio, q.fim, q.idRec ?? null];
    const total = Number((await rows(pool(this.ds), `SELECT count(*)::int AS n FROM sandbox_bank_billings WHERE ${where}`, params))[0].n);
    const items = await rows<BillingRow>(
      pool(this.ds),
      `SELECT ${COLS} FROM sandbox_bank_billings WHERE ${where} ORDER BY psp_created_at, id_tx LIMIT $4 OFFSET $5`,
      [...params, q.perPage, q.page * q.perPage],
    );
    return { items: items.map(cobr).filter((c) => !q.status || cobrStatusOf(c.status) === q.status), total };
  }

  /** Active cobrs whose next attempt falls on or before `day` (locked, SKIP LOCKED). */
  async lockAttemptsDue(m: Tx, day: string): Promise<CobrRow[]> {
    const r = await rows<BillingRow>(
      m,
      `SELECT ${COLS} FROM sandbox_bank_billings WHERE id_rec IS NOT NULL AND status = 'ACTIVE' AND attempt_date <= $1 ORDER BY attempt_date, id_tx FOR UPDATE SKIP LOCKED`,
      [day],
    );
    return r.map(cobr);
  }

  /** Active cobrs waiting for a retry request (no attempt scheduled): closed when the policy's budget is spent. */
  async lockAwaitingRetry(m: Tx): Promise<CobrRow[]> {
    const r = await rows<BillingRow>(
      m,
      `SELECT ${COLS} FROM sandbox_bank_billings WHERE id_rec IS NOT NULL AND status = 'ACTIVE' AND attempt_date IS NULL FOR UPDATE SKIP LOCKED`,
      [],
    );
    return r.map(cobr);
  }

  async lock(m: Tx, txid: string): Promise<CobrRow | null> {
    const r = await rows<BillingRow>(m, `SELECT ${COLS} FROM sandbox_bank_billings WHERE id_tx = $1 AND id_rec IS NOT NULL FOR UPDATE`, [
      txid,
    ]);
    return r[0] ? cobr(r[0]) : null;
  }

  /** Records a change the callbacks must tell (the bank's outbox; the flush routes cobr rows to `{webhookUrl}/cobr`). */
  async changed(m: Tx, items: { txid: string; recurrenceId: string; what: string }[], at: string): Promise<void> {
    if (!items.length) return;
    await rows(
      m,
      `INSERT INTO sandbox_bank_events (event_type, id_tx, payload) SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])`,
      [
        items.map(() => 'PSP_COBR_CHANGED'),
        items.map((i) => i.txid),
        items.map((i) =>
          JSON.stringify({
            eventType: 'PSP_COBR_CHANGED',
            idTx: i.txid,
            occurredAt: at,
            data: { recurrenceId: i.recurrenceId, what: i.what },
          }),
        ),
      ],
    );
  }
}

/** The bank's billing status as an API Pix cobr status. */
export function cobrStatusOf(bankStatus: string): string {
  switch (bankStatus) {
    case 'RECEIVED':
      return 'CRIADA';
    case 'ACTIVE':
      return 'ATIVA';
    case 'COMPLETED':
      return 'CONCLUIDA';
    case 'REJECTED':
      return 'REJEITADA';
    case 'EXPIRED':
      return 'EXPIRADA';
    default:
      return 'CANCELADA';
  }
}
