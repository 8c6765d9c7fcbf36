import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AsText, Present, Row, Tx, pool } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';
import { PspDevolucaoStore } from './psp-devolucao.store';
import { PspDevolucao } from './psp-devolucao.view';

/** A cob or cobv of the sandbox PSP: a row of the sandbox's Pix charges with `face = 'psp'`. */
export interface PspCharge {
  txid: string;
  kind: 'cob' | 'cobv';
  clientId: string;
  requestHash: string;
  revisao: number;
  /** The bank's charge status (one state with the acquirer face). */
  status: 'PENDING' | 'AUTHORIZED' | 'SETTLED' | 'EXPIRED' | 'REMOVED';
  removedBy: 'USUARIO_RECEBEDOR' | 'PSP' | null;
  amountCents: number;
  chave: string;
  expiracaoS: number | null;
  dueDate: string | null;
  validadeAposVencimento: number | null;
  devedor: Record<string, string> | null;
  solicitacaoPagador: string | null;
  infoAdicionais: { nome: string; valor: string }[] | null;
  brCode: string;
  locId: number;
  boletoId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface PspLocation {
  id: number;
  token: string;
  tipoCob: 'cob' | 'cobv';
  txid: string | null;
  clientId: string;
  createdAt: Date;
}

export interface PspPix {
  endToEndId: string;
  txid: string;
  chave: string;
  amountCents: number;
  paidAt: Date;
  infoPagador: string | null;
  /** Its devoluções, oldest first (the standard's `devolucoes`; absent when none). */
  devolucoes?: PspDevolucao[];
}

const CHARGE = `txid, kind, merchant_id, request_hash, revisao, status, removed_by, amount_cents, chave, expiracao_s, due_date::text AS due_date,
  validade_apos_vencimento, devedor, solicitacao_pagador, info_adicionais, br_code, loc_id, boleto_id, created_at, expires_at`;
const LOCATION = `id, token, tipo_cob, txid, client_id, created_at`;
const PIX = `end_to_end_id, txid, chave, amount_cents, paid_at, info_pagador`;

/** Fields a PUT/PATCH writes on a charge. */
export interface ChargeFields {
  amountCents: number;
  chave: string;
  expiracaoS: number | null;
  dueDate: string | null;
  validadeAposVencimento: number | null;
  devedor: Record<string, string> | null;
  solicitacaoPagador: string | null;
  infoAdicionais: { nome: string; valor: string }[] | null;
  expiresAt: Date;
}

/**
 * The sandbox PSP's store for cob, cobv, their locations and the Pix they received, over the
 * sandbox's Pix charges table (one state: the bank app pays a cob like an acquirer charge).
 */
@Injectable()
export class PspCobStore {
  constructor(
    private readonly ds: DataSource,
    private readonly devolucoes: PspDevolucaoStore,
  ) {}

  async charge(txid: string, m: Tx = pool(this.ds), lock = false): Promise<PspCharge | null> {
    const rows = await sql.rows<ChargeRow>(
      m,
      `SELECT ${CHARGE} FROM sandbox_acquirer_pix_charges WHERE txid = $1 AND face = 'psp'${lock ? ' FOR UPDATE' : ''}`,
      [txid],
    );
    return rows[0] ? toCharge(rows[0]) : null;
  }

  /** Any charge with this txid, whichever face (a txid is the receiver's, unique across its charges). */
  async txidTaken(m: Tx, txid: string): Promise<boolean> {
    return (await sql.rows(m, `SELECT 1 FROM sandbox_acquirer_pix_charges WHERE txid = $1`, [txid])).length > 0;
  }

  async insertCharge(
    m: Tx,
    c: {
      txid: string;
      kind: 'cob' | 'cobv';
      clientId: string;
      requestHash: string;
      locId: number;
      boletoId: string | null;
      brCode: string;
      now: Date;
    } & ChargeFields,
  ): Promise<void> {
    await sql.rows(
      m,
      `INSERT INTO sandbox_acquirer_pix_charges (txid, transaction_id, request_hash, merchant_id, amount_cents, payer_name, br_code, status, expires_at, created_at, updated_at,
         face, kind, revisao, expiracao_s, due_date, validade_apos_vencimento, devedor, chave, solicitacao_pagador, info_adicionais, loc_id, boleto_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'PENDING', $8, $9, $9, 'psp', $10, 0, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
      [
        c.txid,
        `psp:${c.txid}`,
        c.requestHash,
        c.clientId,
        c.amountCents,
        c.devedor?.nome ?? null,
        c.brCode,
        c.expiresAt,
        c.now,
        c.kind,
        c.expiracaoS,
        c.dueDate,
        c.validadeAposVencimento,
        c.devedor ? JSON.stringify(c.devedor) : null,
        c.chave,
        c.solicitacaoPagador,
        c.infoAdicionais ? JSON.stringify(c.infoAdicionais) : null,
        c.locId,
        c.boletoId,
      ],
    );
    await sql.rows(m, `UPDATE sandbox_psp_locations SET txid = $2 WHERE id = $1`, [c.locId, c.txid]);
  }

  /** A revision (PUT again or PATCH): the given fields, revisao + 1. */
  async reviseCharge(m: Tx, txid: string, f: ChargeFields & { requestHash: string; brCode: string }, now: Date): Promise<void> {
    await sql.rows(
      m,
      `UPDATE sandbox_acquirer_pix_charges SET amount_cents = $2, chave = $3, expiracao_s = $4, due_date = $5, validade_apos_vencimento = $6, devedor = $7,
         solicitacao_pagador = $8, info_adicionais = $9, expires_at = $10, request_hash = $11, br_code = $12, payer_name = $13, revisao = revisao + 1, updated_at = $14
       WHERE txid = $1 AND status = 'PENDING'`,
      [
        txid,
        f.amountCents,
        f.chave,
        f.expiracaoS,
        f.dueDate,
        f.validadeAposVencimento,
        f.devedor ? JSON.stringify(f.devedor) : null,
        f.solicitacaoPagador,
        f.infoAdicionais ? JSON.stringify(f.infoAdicionais) : null,
        f.expiresAt,
        f.requestHash,
        f.brCode,
        f.devedor?.nome ?? null,
        now,
      ],
    );
  }

  async removeCharge(m: Tx, txid: string, now: Date): Promise<void> {
    await sql.rows(
      m,
      `UPDATE sandbox_acquirer_pix_charges SET status = 'REMOVED', removed_by = 'USUARIO_RECEBEDOR', revisao = revisao + 1, updated_at = $2 WHERE txid = $1 AND status = 'PENDING'`,
      [txid, now],
    );
  }

  async newLocation(m: Tx, tipoCob: 'cob' | 'cobv', clientId: string, now: Date, tokenLength = 32): Promise<PspLocation> {
    const token = randomBytes(16).toString('hex').slice(0, tokenLength);
    const rows = await sql.rows<LocationRow>(
      m,
      `INSERT INTO sandbox_psp_locations (token, tipo_cob, client_id, created_at) VALUES ($1, $2, $3, $4) RETURNING ${LOCATION}`,
      [token, tipoCob, clientId, now],
    );
    return toLocation(rows[0]);
  }

  async location(id: number, m: Tx = pool(this.ds), lock = false): Promise<PspLocation | null> {
    const rows = await sql.rows<LocationRow>(m, `SELECT ${LOCATION} FROM sandbox_psp_locations WHERE id = $1${lock ? ' FOR UPDATE' : ''}`, [
      id,
    ]);
    return rows[0] ? toLocation(rows[0]) : null;
  }

  async locationByToken(token: string): Promise<PspLocation | null> {
    const rows = await sql.rows<LocationRow>(this.ds, `SELECT ${LOCATION} FROM sandbox_psp_locations WHERE token = $1`, [token]);
    return rows[0] ? toLocation(rows[0]) : null;
  }

  /** The boleto this digitable line names, if the sandbox issued it. */
  async boletoByLine(m: Tx, line: string): Promise<{ id: string; amountCents: number } | null> {
    const rows = await sql.rows(m, `SELECT id, amount_cents FROM sandbox_acquirer_boletos WHERE digitable_line = $1`, [line]);
    return rows[0] ? { id: rows[0].id, amountCents: Number(rows[0].amount_cents) } : null;
  }

  async pixOf(txid: string): Promise<PspPix[]> {
    return this.withDevolucoes(
      (await sql.rows<PixRow>(this.ds, `SELECT ${PIX} FROM sandbox_psp_pix WHERE txid = $1 ORDER BY paid_at`, [txid])).map(toPix),
    );
  }

  async pix(e2eid: string): Promise<PspPix | null> {
    const rows = await sql.rows<PixRow>(this.ds, `SELECT ${PIX} FROM sandbox_psp_pix WHERE end_to_end_id = $1`, [e2eid]);
    return rows[0] ? (await this.withDevolucoes([toPix(rows[0])]))[0] : null;
  }

  /** Received Pix in [inicio, fim] (by horario), with txid and devolução filters, a page at a time. */
  async listPix(q: {
    inicio: Date;
    fim: Date;
    txid?: string;
    txIdPresente?: boolean;
    devolucaoPresente?: boolean;
    page: number;
    perPage: number;
  }): Promise<{ total: number; items: PspPix[] }> {
    const where = [`paid_at BETWEEN $1 AND $2`];
    const params: unknown[] = [q.inicio, q.fim];
    if (q.txid) where.push(`txid = $${params.push(q.txid)}`);
    if (q.txIdPresente === false) where.push('false'); // every Pix of this PSP has a txid (it receives charges only)
    if (q.devolucaoPresente !== undefined)
      where.push(
        `${q.devolucaoPresente ? '' : 'NOT '}EXISTS (SELECT 1 FROM sandbox_psp_devolucoes d WHERE d.end_to_end_id = sandbox_psp_pix.end_to_end_id)`,
      );
    const w = where.join(' AND ');
    const total = Number((await sql.rows(this.ds, `SELECT count(*)::int AS n FROM sandbox_psp_pix WHERE ${w}`, params))[0].n);
    const items = await sql.rows<PixRow>(
      this.ds,
      `SELECT ${PIX} FROM sandbox_psp_pix WHERE ${w} ORDER BY paid_at, end_to_end_id LIMIT ${q.perPage} OFFSET ${q.page * q.perPage}`,
      params,
    );
    return { total, items: await this.withDevolucoes(items.map(toPix)) };
  }

  private async withDevolucoes(pix: PspPix[]): Promise<PspPix[]> {
    const of = await this.devolucoes.ofPix(
      this.ds,
      pix.map((p) => p.endToEndId),
    );
    return pix.map((p) => (of.has(p.endToEndId) ? { ...p, devolucoes: of.get(p.endToEndId) } : p));
  }
}

/** A charge of the PSP face: it always has its chave (the acquirer face's charges do not). */
type ChargeRow = AsText<Present<Row<'sandbox_acquirer_pix_charges'>, 'chave'>, 'due_date'>;

function toCharge(r: ChargeRow): PspCharge {
  return {
    txid: r.txid,
    kind: r.kind as PspCharge['kind'],
    clientId: r.merchant_id,
    requestHash: r.request_hash,
    revisao: Number(r.revisao),
    status: r.status as PspCharge['status'],
    removedBy: r.removed_by as PspCharge['removedBy'],
    amountCents: Number(r.amount_cents),
    chave: r.chave,
    expiracaoS: r.expiracao_s === null ? null : Number(r.expiracao_s),
    dueDate: r.due_date,
    validadeAposVencimento: r.validade_apos_vencimento === null ? null : Number(r.validade_apos_vencimento),
    devedor: r.devedor as PspCharge['devedor'],
    solicitacaoPagador: r.solicitacao_pagador as PspCharge['solicitacaoPagador'],
    infoAdicionais: r.info_adicionais as PspCharge['infoAdicionais'],
    brCode: r.br_code,
    locId: Number(r.loc_id),
    boletoId: r.boleto_id,
    createdAt: new Date(r.created_at),
    expiresAt: new Date(r.expires_at),
  };
}

type LocationRow = Row<'sandbox_psp_locations'>;

function toLocation(r: LocationRow): PspLocation {
  return {
    id: Number(r.id),
    token: r.token,
    tipoCob: r.tipo_cob as PspLocation['tipoCob'],
    txid: r.txid,
    clientId: r.client_id,
    createdAt: new Date(r.created_at),
  };
}

type PixRow = Row<'sandbox_psp_pix'>;

function toPix(r: PixRow): PspPix {
  return {
    endToEndId: r.end_to_end_id,
    txid: r.txid,
    chave: r.chave,
    amountCents: Number(r.amount_cents),
    paidAt: new Date(r.paid_at),
    infoPagador: r.info_pagador as PspPix['infoPagador'],
  };
}
