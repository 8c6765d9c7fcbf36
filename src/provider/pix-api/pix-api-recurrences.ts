import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BankRecurrenceCreated, BankRecurrenceRequest, BankRecurrenceStatus } from '../bank/bank-provider.port';
import { ProviderEventRouter } from '../bank/provider-event-router';
import { ProviderCallError } from '../../../kernel/platform/http/resilient-http';
import { PixApiClient } from './pix-api-client';
import { PERIODICIDADE, RecState, recEventsToReach, recurrenceStatusOfRec } from './rec-status.map';
import * as sql from '../../../kernel/platform/database/sql';
import { contratoOf } from '../../../kernel/common/protocols/pix-api-rec';

interface RecAnswer extends RecState {
  vinculo?: { contrato?: string };
  loc?: { id: number; location: string };
}

/** How long the payer's bank shows a pushed authorization request (Jornada 1). */
const SOLICITATION_TTL_MS = 3 * 86_400_000;

/** A location as the standard writes it has no scheme (`pix.example.com/qr/v2/rec/…`): it is HTTPS. */
export function withScheme(location: string): string {
  return /^https?:\/\//i.test(location) ? location : `https://${location}`;
}

export function reais(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The `POST /rec` body (RecSolicitada) of a recurrence, for a location made first (Jornada 2). */
export function recRequest(req: BankRecurrenceRequest, locId: number) {
  const devedor =
    req.payerTaxId.length === 11 ? { cpf: req.payerTaxId, nome: req.payerName } : { cnpj: req.payerTaxId, nome: req.payerName };
  return {
    vinculo: { contrato: contratoOf(req.recurrenceId), devedor, ...(req.description ? { objeto: req.description.slice(0, 35) } : {}) },
    calendario: {
      dataInicial: req.firstDueDate,
      ...(req.expirationDate ? { dataFinal: req.expirationDate } : {}),
      periodicidade: PERIODICIDADE[req.periodicity],
    },
    valor: { valorRec: reais(req.amountCents) },
    // Billings refused for want of balance are retried (up to 3 times within 7 days).
    politicaRetentativa: 'PERMITE_3R_7D',
    loc: locId,
  };
}

/**
 * The recurrence half of the pix-api adapter: `POST /locrec` then `POST /rec` (the payer
 * authorizes by the location's QR in their bank app: Jornada 2), `GET /rec/{idRec}` for refresh,
 * `PATCH /rec/{idRec}` `{status: CANCELADA}` for the receiver's cancel. The PSP assigns idRec;
 * ours travels as `vinculo.contrato`, which finds the rec again after a lost answer (a create is
 * never blindly repeated: that would make a second rec).
 */
@Injectable()
export class PixApiRecurrences {
  /** idRec of recurrences created but maybe not yet stored (a create whose insert failed is withdrawn by id). */
  private readonly recent = new Map<string, string>();

  constructor(
    private readonly psp: PixApiClient,
    private readonly ds: DataSource,
    private readonly router: ProviderEventRouter,
  ) {}

  supports(periodicity: string): boolean {
    return PERIODICIDADE[periodicity] !== undefined;
  }

  async create(req: BankRecurrenceRequest): Promise<BankRecurrenceCreated & { providerRef: string }> {
    const loc = await this.psp.call<{ id: number; location: string }>({
      operation: 'createLocrec',
      method: 'POST',
      path: '/locrec',
      idempotent: false,
    });
    let rec: RecAnswer;
    try {
      rec = await this.psp.call<RecAnswer>({
        operation: 'createRec',
        method: 'POST',
        path: '/rec',
        body: recRequest(req, loc.id),
        idempotent: false,
      });
    } catch (e) {
      const found =
        e instanceof ProviderCallError && e.code === 'provider_unavailable' ? await this.findByContrato(req).catch(() => null) : null;
      if (!found) throw e;
      rec = found;
    }
    this.remember(req.recurrenceId, rec.idRec);
    if (req.payerBankAccount) await this.pushToPayersBank(req, rec.idRec);
    return {
      recurrenceId: req.recurrenceId,
      status: recurrenceStatusOfRec(rec),
      authorizationUrl: withScheme(rec.loc?.location ?? loc.location),
      providerRef: rec.idRec,
    };
  }

  /**
   * Jornada 1: `POST /solicrec` asks the payer's bank to show the request in the payer's app.
   * Refused (4xx), the rec is withdrawn (`PATCH CANCELADA`) so no half-made mandate is left, and
   * the refusal reaches the caller with the PSP's violations.
   */
  private async pushToPayersBank(req: BankRecurrenceRequest, idRec: string): Promise<void> {
    const acct = req.payerBankAccount!;
    const body = {
      idRec,
      calendario: { dataExpiracaoSolicitacao: new Date(Date.now() + SOLICITATION_TTL_MS).toISOString() },
      destinatario: {
        ...(req.payerTaxId.length === 11 ? { cpf: req.payerTaxId } : { cnpj: req.payerTaxId }),
        conta: acct.account,
        ispbParticipante: acct.ispb,
        ...(acct.branch ? { agencia: acct.branch } : {}),
      },
    };
    try {
      await this.psp.call({ operation: 'createSolicrec', method: 'POST', path: '/solicrec', body, idempotent: false });
    } catch (e) {
      await this.psp
        .call({
          operation: 'cancelRec',
          method: 'PATCH',
          path: `/rec/${encodeURIComponent(idRec)}`,
          body: { status: 'CANCELADA' },
          idempotent: true,
        })
        .catch(() => undefined);
      throw e;
    }
  }

  async get(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }> {
    const { idRec, billed } = await this.idRecOf(recurrenceId);
    const rec = await this.read(idRec);
    return { recurrenceId, status: recurrenceStatusOfRec(rec, billed) };
  }

  async cancel(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }> {
    const { idRec, billed } = await this.idRecOf(recurrenceId);
    const rec = await this.psp.call<RecAnswer>({
      operation: 'cancelRec',
      method: 'PATCH',
      path: `/rec/${encodeURIComponent(idRec)}`,
      body: { status: 'CANCELADA' },
      idempotent: true,
    });
    return { recurrenceId, status: recurrenceStatusOfRec(rec, billed) };
  }

  read(idRec: string): Promise<RecAnswer> {
    return this.psp.call<RecAnswer>({ operation: 'getRec', method: 'GET', path: `/rec/${encodeURIComponent(idRec)}`, idempotent: true });
  }

  /**
   * A rec's state, read back from the PSP (after its callback, or found by reconciliation), applied
   * as the provider events that lead there (duplicates and late ones change nothing).
   */
  async apply(idRec: string, known?: RecAnswer): Promise<void> {
    const rec = known ?? (await this.read(idRec));
    const [ours] = await sql.rows(this.ds, `SELECT id_tx FROM pix_recurrences WHERE id_rec = $1`, [idRec]);
    if (!ours) return;
    for (const eventType of recEventsToReach(rec)) {
      const handled = this.router.dispatch({
        eventType,
        idTx: ours.id_tx,
        occurredAt: new Date().toISOString(),
        data: { source: 'pix-api', idRec, recStatus: rec.status },
      });
      if (!handled) throw new Error('provider events are not handled yet');
      const { outcome } = await handled;
      if (outcome === 'UNKNOWN_ENTITY') return;
    }
  }

  /**
   * Recurrences still open on our side (awaiting the payer, or authorized) whose rec at the PSP
   * says otherwise: read page by page with `GET /rec?inicio&fim`, for the reconciliation of
   * callbacks a PSP dropped. Answers their idRec.
   */
  async drifted(now: Date, perPage = 1000, maxPages = 10_000): Promise<string[]> {
    const open: { id_rec: string; status: string; created_at: Date }[] = await sql.rows(
      this.ds,
      `SELECT id_rec, status, created_at FROM pix_recurrences WHERE id_rec IS NOT NULL AND status IN ('PENDING','ACCEPTED','ACTIVE')`,
    );
    if (!open.length) return [];
    const ours = new Map(open.map((r) => [r.id_rec, r.status]));
    const first = Math.min(...open.map((r) => new Date(r.created_at).getTime()));
    const query = { inicio: new Date(first - 3_600_000).toISOString(), fim: now.toISOString() };
    const out: string[] = [];
    for (let page = 0; page < maxPages; page++) {
      const r = await this.psp.call<{ recs?: RecAnswer[]; parametros?: { paginacao?: { quantidadeDePaginas?: number } } }>({
        operation: 'listRec',
        method: 'GET',
        path: '/rec',
        query: { ...query, 'paginacao.paginaAtual': String(page), 'paginacao.itensPorPagina': String(perPage) },
        idempotent: true,
      });
      for (const rec of r.recs ?? []) {
        const status = ours.get(rec.idRec);
        if (status !== undefined && recurrenceStatusOfRec(rec, status === 'ACTIVE') !== status) out.push(rec.idRec);
      }
      if (page + 1 >= (r.parametros?.paginacao?.quantidadeDePaginas ?? 1)) break;
    }
    return out;
  }

  private async findByContrato(req: BankRecurrenceRequest): Promise<RecAnswer | null> {
    const now = Date.now();
    const query: Record<string, string> = { inicio: new Date(now - 3_600_000).toISOString(), fim: new Date(now + 60_000).toISOString() };
    query[req.payerTaxId.length === 11 ? 'cpf' : 'cnpj'] = req.payerTaxId;
    const page = await this.psp.call<{ recs?: RecAnswer[] }>({
      operation: 'listRec',
      method: 'GET',
      path: '/rec',
      query,
      idempotent: true,
    });
    return page.recs?.find((r) => r.vinculo?.contrato === contratoOf(req.recurrenceId)) ?? null;
  }

  private async idRecOf(recurrenceId: string): Promise<{ idRec: string; billed: boolean }> {
    const [row] = await sql.rows(this.ds, `SELECT id_rec, status FROM pix_recurrences WHERE id = $1`, [recurrenceId]).catch(() => []);
    const idRec = row?.id_rec ?? this.recent.get(recurrenceId);
    if (!idRec) throw new ProviderCallError('provider_rejected', `no API Pix recurrence is known for ${recurrenceId}`, 404);
    return { idRec, billed: row?.status === 'ACTIVE' };
  }

  private remember(recurrenceId: string, idRec: string): void {
    this.recent.set(recurrenceId, idRec);
    if (this.recent.size > 1000) this.recent.delete(this.recent.keys().next().value!);
  }
}
