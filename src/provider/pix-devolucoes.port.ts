import { registerDomainErrors } from '../../kernel/platform/errors/app-error';
import { Injectable, Logger } from '@nestjs/common';
import { CodedError } from '../../kernel/common/formats/coded-error';

/**
 * Port: API Pix devoluções (`PUT`/`GET /pix/{e2eid}/devolucao/{id}`) of a Pix this service
 * received, and what the PSP reports of them. BANK_PROVIDER=pix-api binds the PSP
 * (PixApiDevolucoes); BANK_PROVIDER=service has no devolução (`enabled` false: a link's Pix there is
 * the acquirer's, refunded by it, which this service does not offer yet).
 */

export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
/** DevolucaoNatureza (and DevolucaoNaturezaPixAutomatico): ORIGINAL is ours; MED_* were started by the payer's side. */
export type DevolucaoNatureza = 'ORIGINAL' | 'RETIRADA' | 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO';

/** A devolução as the PSP reports it. */
export interface Devolucao {
  /** The `{id}`: ours (a refund id without dashes) or the PSP's (MED). */
  id: string;
  rtrId: string | null;
  amountCents: number;
  natureza: DevolucaoNatureza;
  descricao: string | null;
  status: DevolucaoStatus;
  motivo: string | null;
  requestedAt: Date | null;
  settledAt: Date | null;
}

/** A Pix this service received and applied to one of its charges. */
export interface ReceivedPix {
  endToEndId: string;
  amountCents: number;
  /** When the Pix settled (the PSP's `horario`): the 90-day window of devoluções starts here. */
  settledAt: Date;
  /** The charge it paid (a cob's, a cobv's or a Pix Automático cobr's txid), when the PSP said. */
  txid?: string | null;
}

/** The PSP's devoluções of one received Pix, as read back after its callback (or a lookup). */
export interface PixDevolucoesReport {
  endToEndId: string;
  /** Our transaction the Pix paid (a link payment, a boleto), when it paid one of our charges; else its txid. */
  transactionId: string | null;
  txid: string | null;
  devolucoes: Devolucao[];
}

/** Why the PSP refused a devolução (PixDevolucaoInvalida's violations, or 404 for an unknown Pix). */
export type DevolucaoRefusal = 'exceeds_pix' | 'id_reused' | 'window_closed' | 'pix_not_found' | 'invalid';

/** The PSP refused the devolução (a 4xx): never retried. */
export class PixDevolucaoRefused extends CodedError<'devolucao_refused'> {
  constructor(
    readonly reason: DevolucaoRefusal,
    /** The PSP's problem name and first violation, short (never parsed further). */
    readonly detail: string,
  ) {
    super('devolucao_refused', `the PSP refused the devolução: ${reason}`);
  }
}

/** Refunds answer a refusal with their own codes (refund-refusals.ts); one that reached the filter is a 422. */
registerDomainErrors<'devolucao_refused'>(PixDevolucaoRefused, { devolucao_refused: 422 });

export interface DevolucaoRequest {
  endToEndId: string;
  /** DevolucaoId, `[a-zA-Z0-9]{1,35}`: our refund id without dashes (32). */
  id: string;
  amountCents: number;
  descricao: string | null;
}

export abstract class PixDevolucoes {
  /** BANK_PROVIDER=pix-api. */
  abstract readonly enabled: boolean;
  /** The Pix received for our transaction (a link's cob, a boleto's cobv), once applied; null when none. */
  abstract receivedFor(transactionId: string): Promise<ReceivedPix | null>;
  /** The received Pix by its endToEndId (a Pix Automático payment's, whose charge is not a cob). */
  abstract received(endToEndId: string): Promise<ReceivedPix | null>;
  /** The Pix that paid a cobr (a Pix Automático billing, by its txid), once read back from the PSP; null when none. */
  abstract paidCobr(txid: string): Promise<ReceivedPix | null>;
  /** `PUT /pix/{e2eid}/devolucao/{id}`, natureza ORIGINAL. @throws ProviderCallError (no answer), PixDevolucaoRefused */
  abstract request(r: DevolucaoRequest): Promise<Devolucao>;
  /** `GET /pix/{e2eid}/devolucao/{id}`; null when the PSP has none (the PUT never reached it). @throws ProviderCallError */
  abstract lookup(endToEndId: string, id: string): Promise<Devolucao | null>;
}

export type PixDevolucoesHandler = (report: PixDevolucoesReport) => Promise<void>;

/**
 * Where the devoluções the PSP reports on a received Pix go (its callbacks, read back with
 * `GET /pix/{e2eid}`). The refunds module subscribes at start, so the provider never imports a
 * feature. A handler that throws leaves the Pix to be read again.
 */
@Injectable()
export class PixDevolucaoEvents {
  private readonly logger = new Logger('PixDevolucaoEvents');
  private readonly handlers: PixDevolucoesHandler[] = [];

  subscribe(handle: PixDevolucoesHandler): void {
    this.handlers.push(handle);
  }

  async dispatch(report: PixDevolucoesReport): Promise<void> {
    if (!report.devolucoes.length) return;
    if (!this.handlers.length) this.logger.warn({ endToEndId: report.endToEndId }, 'devoluções reported and nobody listens');
    for (const h of this.handlers) await h(report);
  }
}
