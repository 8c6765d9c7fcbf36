import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { centsToDecimalString, decimalStringToCents } from '../../../kernel/common/formats/money';
import * as sql from '../../../kernel/platform/database/sql';
import {
  Devolucao,
  DevolucaoNatureza,
  DevolucaoRefusal,
  DevolucaoRequest,
  DevolucaoStatus,
  PixDevolucaoRefused,
  PixDevolucoes,
  ReceivedPix,
} from '../pix-devolucoes.port';
import { PixApiCobConfig } from './pix-api-cob.config';
import { PixApiClient, PixApiRejection } from './pix-api-client';

/** Devolucao as API Pix 2.9 answers it (the fields read). */
export interface DevolucaoAnswer {
  id: string;
  rtrId?: string;
  valor: string;
  natureza?: string;
  descricao?: string;
  horario?: { solicitacao?: string; liquidacao?: string };
  status: string;
  motivo?: string;
}

const STATUSES: readonly string[] = ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'];

function cents(d: DevolucaoAnswer): number {
  const c = decimalStringToCents(String(d.valor));
  if (c === null) throw new Error(`devolução ${d.id}: valor is not a decimal`);
  return c;
}

export function devolucaoOf(d: DevolucaoAnswer): Devolucao {
  if (!STATUSES.includes(d.status)) throw new Error(`devolução ${d.id}: unknown status ${String(d.status).slice(0, 40)}`);
  return {
    id: String(d.id),
    rtrId: d.rtrId ?? null,
    amountCents: cents(d),
    natureza: (d.natureza ?? 'ORIGINAL') as DevolucaoNatureza,
    descricao: d.descricao ?? null,
    status: d.status as DevolucaoStatus,
    motivo: d.motivo ? String(d.motivo).slice(0, 140) : null,
    requestedAt: d.horario?.solicitacao ? new Date(d.horario.solicitacao) : null,
    settledAt: d.horario?.liquidacao ? new Date(d.horario.liquidacao) : null,
  };
}

/**
 * API Pix devoluções at the PSP (BANK_PROVIDER=pix-api), over PixApiClient (mutual TLS, OAuth2,
 * breakers `psp.putDevolucao` / `psp.getDevolucao`, retries). The PUT is idempotent by its `{id}`
 * (the same body again answers the same devolução), so it is retried on 5xx and timeouts like a GET.
 * The PSP's PixDevolucaoInvalida is read by the property each violation names: `devolucao.valor`
 * (the sum over the Pix), `id` (reused with another body), `e2eid` (the 90-day window).
 */
@Injectable()
export class PixApiDevolucoes extends PixDevolucoes {
  constructor(
    private readonly ds: DataSource,
    private readonly client: PixApiClient,
    private readonly config: PixApiCobConfig,
  ) {
    super();
  }

  get enabled(): boolean {
    return this.config.enabled;
  }

  /**
   * The Pix that paid our charge, once applied: also while a later callback for it (its devoluções)
   * is being read again (status back to PENDING, applied_at kept), or a refund asked meanwhile
   * would find no Pix.
   */
  async receivedFor(transactionId: string): Promise<ReceivedPix | null> {
    const r = await sql.maybeOne<{ end_to_end_id: string; amount_cents: string | null; at: Date }>(
      this.ds,
      `SELECT p.end_to_end_id, coalesce(p.amount_cents, c.amount_cents) AS amount_cents, coalesce(p.horario, p.applied_at, p.received_at) AS at
         FROM pix_api_charges c JOIN pix_api_pix_received p ON p.txid = c.txid AND p.applied_at IS NOT NULL AND p.status <> 'IGNORED'
        WHERE c.transaction_id = $1 ORDER BY p.received_at LIMIT 1`,
      [transactionId],
    );
    return r && { endToEndId: r.end_to_end_id, amountCents: Number(r.amount_cents), settledAt: new Date(r.at) };
  }

  async received(endToEndId: string): Promise<ReceivedPix | null> {
    const r = await sql.maybeOne<{ amount_cents: string; at: Date; txid: string | null }>(
      this.ds,
      `SELECT amount_cents, coalesce(horario, applied_at, received_at) AS at, txid FROM pix_api_pix_received WHERE end_to_end_id = $1 AND amount_cents IS NOT NULL`,
      [endToEndId],
    );
    return r && { endToEndId, amountCents: Number(r.amount_cents), settledAt: new Date(r.at), txid: r.txid };
  }

  async paidCobr(txid: string): Promise<ReceivedPix | null> {
    const r = await sql.maybeOne<{ end_to_end_id: string; amount_cents: string; at: Date }>(
      this.ds,
      `SELECT end_to_end_id, amount_cents, coalesce(horario, applied_at, received_at) AS at FROM pix_api_pix_received
        WHERE txid = $1 AND amount_cents IS NOT NULL ORDER BY received_at LIMIT 1`,
      [txid],
    );
    return r && { endToEndId: r.end_to_end_id, amountCents: Number(r.amount_cents), settledAt: new Date(r.at), txid };
  }

  async request(r: DevolucaoRequest): Promise<Devolucao> {
    try {
      const d = await this.client.call<DevolucaoAnswer>({
        operation: 'putDevolucao',
        method: 'PUT',
        path: path(r.endToEndId, r.id),
        body: { valor: centsToDecimalString(r.amountCents), natureza: 'ORIGINAL', ...(r.descricao ? { descricao: r.descricao } : {}) },
        idempotent: true,
      });
      return devolucaoOf(d);
    } catch (e) {
      if (e instanceof PixApiRejection && (e.problem.status === 400 || e.problem.status === 404)) throw refusalOf(e);
      throw e;
    }
  }

  async lookup(endToEndId: string, id: string): Promise<Devolucao | null> {
    try {
      return devolucaoOf(
        await this.client.call<DevolucaoAnswer>({ operation: 'getDevolucao', method: 'GET', path: path(endToEndId, id), idempotent: true }),
      );
    } catch (e) {
      if (e instanceof PixApiRejection && e.problem.status === 404) return null;
      throw e;
    }
  }
}

const path = (e2eid: string, id: string) => `/pix/${encodeURIComponent(e2eid)}/devolucao/${encodeURIComponent(id)}`;

/** PixDevolucaoInvalida's violation, by the property it names (the razão is the PSP's words: only shown). */
export function refusalOf(e: PixApiRejection): PixDevolucaoRefused {
  const v = e.problem.violacoes ?? [];
  const detail = `${e.problemName}${v[0] ? `: ${v[0].propriedade}: ${v[0].razao}` : e.problem.detail ? `: ${e.problem.detail}` : ''}`.slice(
    0,
    200,
  );
  if (e.problem.status === 404) return new PixDevolucaoRefused('pix_not_found', detail);
  const names = v.map((x) => x.propriedade);
  const reason: DevolucaoRefusal = names.includes('e2eid')
    ? 'window_closed'
    : names.includes('id')
      ? 'id_reused'
      : v.some((x) => x.propriedade === 'devolucao.valor' && /exced/i.test(x.razao))
        ? 'exceeds_pix'
        : 'invalid';
  return new PixDevolucaoRefused(reason, detail);
}

/** BANK_PROVIDER=service: no API Pix, so no devolução (the acquirer's Pix is not refunded here). */
@Injectable()
export class NoPixDevolucoes extends PixDevolucoes {
  readonly enabled = false;
  receivedFor(): Promise<ReceivedPix | null> {
    return Promise.resolve(null);
  }
  received(): Promise<ReceivedPix | null> {
    return Promise.resolve(null);
  }
  paidCobr(): Promise<ReceivedPix | null> {
    return Promise.resolve(null);
  }
  request(): Promise<Devolucao> {
    return Promise.reject(new PixDevolucaoRefused('invalid', 'BANK_PROVIDER=service has no API Pix devolução'));
  }
  lookup(): Promise<Devolucao | null> {
    return Promise.resolve(null);
  }
}
