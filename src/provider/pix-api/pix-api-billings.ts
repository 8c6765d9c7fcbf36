import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ProviderCallError } from '../../../kernel/platform/http/resilient-http';
import { BankBillingRequest, BankBillingResult } from '../bank/bank-provider.port';
import { billingStatusOfCobr, CobrState } from './cobr-status.map';
import { PixApiCobrConfig, ReceiverAccount } from './pix-api-cobr.config';
import * as sql from '../../../kernel/platform/database/sql';

export type { ReceiverAccount } from './pix-api-cobr.config';

/** Calls to the PSP (PixApiClient's shape): mTLS, OAuth2, breaker `psp.<operation>`, retries when `idempotent`. */
export interface PspCaller {
  call<T>(req: {
    operation: string;
    method: string;
    path: string;
    query?: Record<string, string>;
    body?: unknown;
    idempotent: boolean;
  }): Promise<T>;
}

/** What the PSP needs of the recurrence a billing belongs to. */
export interface RecLink {
  idRec: string;
  dayAdjustment: string;
}

/** Billings sent to the PSP side by side within one `sendBillings` (one `PUT /cobr` each). */
export const PUT_CONCURRENCY = 32;

/**
 * `dayAdjustment` → `ajusteDiaUtil`. The engine has already computed the date (`dataDeVencimento`
 * is the adjusted due date), so the flag only tells the PSP what to do when that date is a
 * non-business day *for the payer* (the standard: local holidays of the payer's municipality):
 * MOVE_FORWARD_NEXT_BUSINESS_DAY → true (the PSP may move it on, as the tenant asked);
 * KEEP_DUE_DATE → false (Pix settles any day; the date is kept); MOVE_BACKWARD_PREVIOUS_BUSINESS_DAY
 * → false (the engine has moved it back already; moving it forward again would undo that).
 */
export function ajusteDiaUtil(dayAdjustment: string): boolean {
  return dayAdjustment === 'MOVE_FORWARD_NEXT_BUSINESS_DAY';
}

export function reais(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The `PUT /cobr/{txid}` body (CobRSolicitada) of one billing. */
export function cobrRequest(b: BankBillingRequest, link: RecLink, receiver: ReceiverAccount) {
  return {
    idRec: link.idRec,
    calendario: { dataDeVencimento: b.dueDate },
    valor: { original: reais(b.amountCents) },
    ajusteDiaUtil: ajusteDiaUtil(link.dayAdjustment),
    recebedor: receiver,
  };
}

/** One line for `lastError`: the PSP's RFC 7807 problem (type name, status, detail, violations). */
export function problemReason(e: ProviderCallError): string {
  const p = (e.body ?? {}) as { type?: string; title?: string; detail?: string; violacoes?: { razao?: string; propriedade?: string }[] };
  const name = typeof p.type === 'string' ? p.type.split('/').pop() : undefined;
  const parts = [`${e.status ?? ''} ${name ?? p.title ?? 'rejected'}`.trim()];
  if (p.detail) parts.push(p.detail);
  const v = Array.isArray(p.violacoes)
    ? p.violacoes.map((x) => `${x.razao ?? ''}${x.propriedade ? ` (${x.propriedade})` : ''}`).filter(Boolean)
    : [];
  if (v.length) parts.push(`violações: ${v.join('; ')}`);
  return parts.join(': ').slice(0, 500);
}

function violationMentions(e: ProviderCallError, text: RegExp): boolean {
  const p = (e.body ?? {}) as { detail?: string; violacoes?: { razao?: string }[] };
  return text.test(p.detail ?? '') || (Array.isArray(p.violacoes) && p.violacoes.some((v) => text.test(v.razao ?? '')));
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

/**
 * Billings on API Pix (cobrança recorrente): one `PUT /cobr/{txid}` per billing (txid = our idTx,
 * so a repeat is recognised), `PATCH /cobr/{txid}` to cancel, `GET` to read back, and
 * `POST /cobr/{txid}/retentativa/{data}` for the retry policy.
 */
export class PixApiCobr {
  constructor(
    private readonly psp: PspCaller,
    private readonly links: (recurrenceIds: string[]) => Promise<Map<string, RecLink>>,
    private readonly receiver: () => ReceiverAccount,
  ) {}

  /**
   * Each billing: accepted (201, or a repeat of ours the PSP already holds); refused with the
   * PSP's problem (4xx: never retried); or `retryable` (5xx, timeout, open breaker).
   */
  async sendBillings(billings: BankBillingRequest[]): Promise<BankBillingResult[]> {
    if (!billings.length) return [];
    const links = await this.links([...new Set(billings.map((b) => b.recurrenceId))]);
    return mapLimit(billings, PUT_CONCURRENCY, (b) => this.putOne(b, links.get(b.recurrenceId)));
  }

  private async putOne(b: BankBillingRequest, link: RecLink | undefined): Promise<BankBillingResult> {
    if (!link) return { idTx: b.idTx, accepted: false, reason: 'the recurrence has no idRec at the PSP' };
    const body = cobrRequest(b, link, this.receiver());
    try {
      const c = await this.psp.call<CobrState>({
        operation: 'putCobr',
        method: 'PUT',
        path: `/cobr/${encodeURIComponent(b.idTx)}`,
        body,
        idempotent: true,
      });
      return { idTx: b.idTx, accepted: true, status: billingStatusOfCobr(c) };
    } catch (e) {
      if (!(e instanceof ProviderCallError)) throw e;
      if (e.code !== 'provider_rejected') return { idTx: b.idTx, accepted: false, retryable: true, reason: e.message };
      // "O campo cobr.txid encontra-se em uso": our own earlier PUT whose answer was lost (timeout, crash)?
      if (violationMentions(e, /txid.*em uso/i)) {
        const held = await this.getCobr(b.idTx).catch(() => null);
        if (held && held.idRec === link.idRec && (held as { valor?: { original?: string } }).valor?.original === body.valor.original) {
          return { idTx: b.idTx, accepted: true, status: billingStatusOfCobr(held) };
        }
      }
      return { idTx: b.idTx, accepted: false, reason: problemReason(e) };
    }
  }

  /** `PATCH /cobr/{txid}` status CANCELADA. A cobr the PSP never received (404) has nothing to cancel. */
  async cancel(idTx: string): Promise<{ idTx: string; status: string }> {
    try {
      const c = await this.psp.call<CobrState>({
        operation: 'patchCobr',
        method: 'PATCH',
        path: `/cobr/${encodeURIComponent(idTx)}`,
        body: { status: 'CANCELADA' },
        idempotent: true,
      });
      return { idTx, status: billingStatusOfCobr(c) };
    } catch (e) {
      if (e instanceof ProviderCallError && e.code === 'provider_rejected' && e.status === 404)
        return { idTx, status: 'CANCELLED_RECEIVER' };
      throw e;
    }
  }

  getCobr(txid: string): Promise<CobrState> {
    return this.psp.call<CobrState>({ operation: 'getCobr', method: 'GET', path: `/cobr/${encodeURIComponent(txid)}`, idempotent: true });
  }

  /** One page of `GET /cobr` (cobrs created between `inicio` and `fim`, RFC 3339). */
  listCobr(
    inicio: string,
    fim: string,
    page: number,
    perPage: number,
  ): Promise<{ cobsr: CobrState[]; parametros: { paginacao: { quantidadeDePaginas: number } } }> {
    return this.psp.call({
      operation: 'listCobr',
      method: 'GET',
      path: '/cobr',
      query: { inicio, fim, 'paginacao.paginaAtual': String(page), 'paginacao.itensPorPagina': String(perPage) },
      idempotent: true,
    });
  }

  /** `POST /cobr/{txid}/retentativa/{data}`; a retry already asked for that date counts as done. */
  async requestRetry(txid: string, date: string): Promise<CobrState | null> {
    try {
      return await this.psp.call<CobrState>({
        operation: 'retryCobr',
        method: 'POST',
        path: `/cobr/${encodeURIComponent(txid)}/retentativa/${date}`,
        idempotent: true,
      });
    } catch (e) {
      if (
        e instanceof ProviderCallError &&
        e.code === 'provider_rejected' &&
        violationMentions(e, /tentativa (vigente|com status|em andamento|ativa|não finalizada)/i)
      )
        return null;
      throw e;
    }
  }
}

/** Injection token of the PSP caller (psp-core's PixApiClient). */
export const PIX_API_CALLER = Symbol('PIX_API_CALLER');

/**
 * The billing half of the pix-api BankProvider (`PixApiBankProvider.sendBillings`/`cancelBilling`
 * delegate here) and the cobr calls of the callback worker and the reconciler.
 */
@Injectable()
export class PixApiBillings {
  private readonly calls: PixApiCobr;

  constructor(
    private readonly ds: DataSource,
    @Inject(PIX_API_CALLER) psp: PspCaller,
    private readonly config: PixApiCobrConfig,
  ) {
    this.calls = new PixApiCobr(
      psp,
      (ids) => this.links(ids),
      () => this.config.receiverAccount,
    );
  }

  enabled(): boolean {
    return this.config.enabled;
  }

  cobr(): PixApiCobr {
    return this.calls;
  }

  sendBillings(billings: BankBillingRequest[]): Promise<BankBillingResult[]> {
    return this.calls.sendBillings(billings);
  }

  cancelBilling(idTx: string): Promise<{ idTx: string; status: string }> {
    return this.calls.cancel(idTx);
  }

  /** idRec and dayAdjustment of each recurrence (TEMPORARY: the idRec column is psp-core's). */
  private async links(recurrenceIds: string[]): Promise<Map<string, RecLink>> {
    const r: { id: string; id_rec: string | null; day_adjustment: string }[] = await sql.rows(
      this.ds,
      `SELECT id, id_rec, day_adjustment FROM pix_recurrences WHERE id = ANY($1::uuid[])`,
      [recurrenceIds],
    );
    return new Map(r.filter((x) => x.id_rec).map((x) => [x.id, { idRec: x.id_rec!, dayAdjustment: x.day_adjustment }]));
  }
}
