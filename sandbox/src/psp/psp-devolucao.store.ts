import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Db, Row, Tx } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';
import { DevolucaoNatureza, DevolucaoStatus, PixOrigin, PspDevolucao } from './psp-devolucao.view';

const COLS = `end_to_end_id, id, rtr_id, amount_cents, natureza, descricao, request_hash, status, outcome, motivo, ticks_left, requested_at, settled_at`;

/** A received Pix as a devolução needs it: its valor, when it settled, and where it came from. */
export interface DevolvablePix {
  endToEndId: string;
  amountCents: number;
  paidAt: Date;
  origin: PixOrigin;
}

export interface NewDevolucao {
  endToEndId: string;
  id: string;
  rtrId: string;
  amountCents: number;
  natureza: DevolucaoNatureza;
  descricao: string | null;
  requestHash: string | null;
  status: DevolucaoStatus;
  outcome: 'DEVOLVIDO' | 'NAO_REALIZADO';
  motivo: string | null;
  ticksLeft: number;
  at: Date;
}

type DevolucaoRow = Row<'sandbox_psp_devolucoes'>;

/**
 * The sandbox PSP's devoluções (`sandbox_psp_devolucoes`). A devolução is written with the Pix's
 * row locked, so two racing on one Pix can never together give back more than it received; the
 * tick settles them with a conditional update (EM_PROCESSAMENTO only) and queues the Pix's
 * callback in the same transaction (the PSP's callback outbox, `sandbox_psp_pix_callbacks`).
 */
@Injectable()
export class PspDevolucaoStore {
  constructor(private readonly ds: DataSource) {}

  transaction<T>(fn: (m: Tx) => Promise<T>): Promise<T> {
    return sql.transaction(this.ds, fn);
  }

  pool(): Tx {
    return sql.pool(this.ds);
  }

  /** The received Pix, locked for the rest of the transaction (null: this PSP received no such Pix). */
  async lockPix(m: Tx, e2eid: string): Promise<DevolvablePix | null> {
    const r = await sql.maybeOne<Pick<Row<'sandbox_psp_pix'>, 'end_to_end_id' | 'amount_cents' | 'paid_at' | 'origin'>>(
      m,
      `SELECT end_to_end_id, amount_cents, paid_at, origin FROM sandbox_psp_pix WHERE end_to_end_id = $1 FOR UPDATE`,
      [e2eid],
    );
    return r
      ? { endToEndId: r.end_to_end_id, amountCents: Number(r.amount_cents), paidAt: new Date(r.paid_at), origin: r.origin as PixOrigin }
      : null;
  }

  async find(db: Db, e2eid: string, id: string): Promise<(PspDevolucao & { requestHash: string | null }) | null> {
    const r = await sql.maybeOne<DevolucaoRow>(db, `SELECT ${COLS} FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1 AND id = $2`, [
      e2eid,
      id,
    ]);
    return r ? { ...toDevolucao(r), requestHash: r.request_hash } : null;
  }

  /** What the Pix's devoluções already take (NAO_REALIZADO ones gave nothing back). */
  async takenCents(m: Tx, e2eid: string): Promise<number> {
    const r = await sql.rows<{ n: string }>(
      m,
      `SELECT coalesce(sum(amount_cents), 0)::text AS n FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1 AND status <> 'NAO_REALIZADO'`,
      [e2eid],
    );
    return Number(r[0].n);
  }

  async insert(m: Tx, d: NewDevolucao): Promise<PspDevolucao> {
    const [r] = await sql.rows<DevolucaoRow>(
      m,
      `INSERT INTO sandbox_psp_devolucoes (end_to_end_id, id, rtr_id, amount_cents, natureza, descricao, request_hash, status, outcome, motivo, ticks_left, requested_at, settled_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, CASE WHEN $8 = 'EM_PROCESSAMENTO' THEN NULL ELSE $12::timestamptz END)
       RETURNING ${COLS}`,
      [
        d.endToEndId,
        d.id,
        d.rtrId,
        d.amountCents,
        d.natureza,
        d.descricao,
        d.requestHash,
        d.status,
        d.outcome,
        d.motivo,
        d.ticksLeft,
        d.at,
      ],
    );
    return toDevolucao(r);
  }

  /** Every devolução of these Pix, oldest first, by Pix. */
  async ofPix(db: Db, e2eids: string[]): Promise<Map<string, PspDevolucao[]>> {
    const out = new Map<string, PspDevolucao[]>();
    if (!e2eids.length) return out;
    const rs = await sql.rows<DevolucaoRow>(
      db,
      `SELECT ${COLS} FROM sandbox_psp_devolucoes WHERE end_to_end_id = ANY($1::text[]) ORDER BY requested_at, id`,
      [e2eids],
    );
    for (const r of rs) out.set(r.end_to_end_id, [...(out.get(r.end_to_end_id) ?? []), toDevolucao(r)]);
    return out;
  }

  /**
   * One tick: every devolução EM_PROCESSAMENTO counts one down; those that reach zero settle to
   * their outcome (a NAO_REALIZADO one with `motivo`). Answers the Pix whose devoluções settled.
   */
  async tick(m: Tx, at: Date, motivo: string): Promise<string[]> {
    const rs = await sql.rows<Pick<DevolucaoRow, 'end_to_end_id' | 'status'>>(
      m,
      `WITH due AS (
         SELECT end_to_end_id, id FROM sandbox_psp_devolucoes WHERE status = 'EM_PROCESSAMENTO' ORDER BY requested_at FOR UPDATE SKIP LOCKED)
       UPDATE sandbox_psp_devolucoes d
          SET ticks_left = greatest(d.ticks_left - 1, 0),
              status = CASE WHEN d.ticks_left <= 1 THEN d.outcome ELSE d.status END,
              settled_at = CASE WHEN d.ticks_left <= 1 THEN $1::timestamptz ELSE NULL END,
              motivo = CASE WHEN d.ticks_left <= 1 AND d.outcome = 'NAO_REALIZADO' THEN $2 ELSE d.motivo END
         FROM due WHERE d.end_to_end_id = due.end_to_end_id AND d.id = due.id AND d.status = 'EM_PROCESSAMENTO'
       RETURNING d.end_to_end_id, d.status`,
      [at, motivo],
    );
    return [...new Set(rs.filter((r) => r.status !== 'EM_PROCESSAMENTO').map((r) => r.end_to_end_id))];
  }

  /** Queues the Pix's callback (the received Pix with its devoluções, re-sent); answers the callback ids. */
  async queueCallbacks(m: Tx, e2eids: string[]): Promise<string[]> {
    if (!e2eids.length) return [];
    const rs = await sql.rows<{ id: string }>(
      m,
      `INSERT INTO sandbox_psp_pix_callbacks (end_to_end_id) SELECT unnest($1::text[]) RETURNING id`,
      [e2eids],
    );
    return rs.map((r) => r.id);
  }
}

function toDevolucao(r: DevolucaoRow): PspDevolucao {
  return {
    endToEndId: r.end_to_end_id,
    id: r.id,
    rtrId: r.rtr_id,
    amountCents: Number(r.amount_cents),
    natureza: r.natureza as DevolucaoNatureza,
    descricao: r.descricao,
    status: r.status as DevolucaoStatus,
    motivo: r.motivo,
    requestedAt: new Date(r.requested_at),
    settledAt: r.settled_at ? new Date(r.settled_at) : null,
  };
}
