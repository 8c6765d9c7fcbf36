/**
 * API Pix cobrança recorrente (cobr) → the service's nine billing states (pure).
 *
 * | cobr `status` | `encerramento`                                   | billing status     |
 * |---------------|--------------------------------------------------|--------------------|
 * | CRIADA        | -                                                | SENT               |
 * | ATIVA         | - (also while a retry, NTAG, is pending)         | ACTIVE             |
 * | CONCLUIDA     | -                                                | COMPLETED          |
 * | EXPIRADA      | -                                                | EXPIRED            |
 * | REJEITADA     | `rejeicao` (any code)                            | REJECTED           |
 * | CANCELADA     | `cancelamento.solicitante` USUARIO_RECEBEDOR, PSP_RECEBEDOR | CANCELLED_RECEIVER |
 * | CANCELADA     | `cancelamento.solicitante` USUARIO_PAGADOR, PSP_PAGADOR, or none | CANCELLED_PAYER |
 *
 * PENDING_SEND and SEND_FAILED are never the PSP's: they are billings the PSP does not hold
 * (not sent yet, or its `PUT /cobr` failed). A CANCELADA without a requester is taken as the
 * payer's: a cancel of ours is already CANCELLED_RECEIVER here (terminal), so reading it as the
 * payer's changes nothing, while reading a payer's cancel as ours would tell the tenant wrong.
 */
import { BankBillingStatus as BillingStatus } from '../bank/bank-provider.port';

export const COBR_STATUSES = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'] as const;
export type CobrStatus = (typeof COBR_STATUSES)[number];

export const CANCEL_REQUESTERS = ['PSP_PAGADOR', 'USUARIO_PAGADOR', 'PSP_RECEBEDOR', 'USUARIO_RECEBEDOR'] as const;
export type CancelRequester = (typeof CANCEL_REQUESTERS)[number];

export type AttemptStatus = 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';

/** One settlement attempt (`tentativas[]`): AGND the scheduled one, NTAG a retry, RIFL an intraday retry. */
export interface CobrAttempt {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG' | 'RIFL';
  status: AttemptStatus;
  endToEndId?: string;
  rejeicao?: { codigo: string; descricao?: string };
}

/** The part of a cobr (GET /cobr/{txid}, GET /cobr, or a `cobsr[]` callback item) the service reads. */
export interface CobrState {
  txid: string;
  idRec?: string;
  status: CobrStatus;
  calendario?: { dataDeVencimento?: string };
  politicaRetentativa?: 'NAO_PERMITE' | 'PERMITE_3R_7D';
  encerramento?: {
    cancelamento?: { solicitante?: string; codigo?: string; descricao?: string };
    rejeicao?: { codigo?: string; descricao?: string };
  };
  tentativas?: CobrAttempt[];
}

type Row = BillingStatus | { byRequester: { readonly [R in CancelRequester | 'NONE']: BillingStatus } };

const B = BillingStatus;

/** Written out for every cobr status, so that a reader sees each one's meaning at a glance. */
const TABLE: { readonly [S in CobrStatus]: Row } = {
  CRIADA: B.SENT,
  ATIVA: B.ACTIVE,
  CONCLUIDA: B.COMPLETED,
  EXPIRADA: B.EXPIRED,
  REJEITADA: B.REJECTED,
  CANCELADA: {
    byRequester: {
      USUARIO_RECEBEDOR: B.CANCELLED_RECEIVER,
      PSP_RECEBEDOR: B.CANCELLED_RECEIVER,
      USUARIO_PAGADOR: B.CANCELLED_PAYER,
      PSP_PAGADOR: B.CANCELLED_PAYER,
      NONE: B.CANCELLED_PAYER,
    },
  },
};

export function isCobrStatus(value: unknown): value is CobrStatus {
  return typeof value === 'string' && (COBR_STATUSES as readonly string[]).includes(value);
}

/** The billing status a cobr stands for. */
export function billingStatusOfCobr(c: Pick<CobrState, 'status' | 'encerramento'>): BillingStatus {
  const row = TABLE[c.status];
  if (typeof row === 'string') return row;
  const who = c.encerramento?.cancelamento?.solicitante;
  return row.byRequester[(CANCEL_REQUESTERS as readonly string[]).includes(who ?? '') ? (who as CancelRequester) : 'NONE'];
}

/**
 * The provider events (RECEIVER_* names of the service protocol) that lead a billing from SENT to
 * `target` along the billing machine, in order. Applying them through the existing provider-event
 * handler makes a cobr read back from the PSP land exactly like the `service` provider's events:
 * the same states, the same tenant events, and an event already applied is a DUPLICATE/LATE no-op.
 * A cobr REJEITADA/EXPIRADA/CONCLUIDA is reached through ATIVA (the PSP schedules every attempt
 * with the payer's PSP before it settles or fails).
 */
export function eventsToReach(target: BillingStatus): string[] {
  const E = 'PIX_AUTOMATIC_RECEIVER_BILLING_';
  switch (target) {
    case B.PENDING_SEND:
    case B.SEND_FAILED:
    case B.SENT:
      return [];
    case B.ACTIVE:
      return [`${E}ACTIVE`];
    case B.COMPLETED:
      return [`${E}ACTIVE`, `${E}COMPLETED`];
    case B.REJECTED:
      return [`${E}ACTIVE`, `${E}REJECTED`];
    case B.EXPIRED:
      return [`${E}ACTIVE`, `${E}EXPIRED`];
    case B.CANCELLED_RECEIVER:
      return [`${E}CANCELED_RECEIVER`];
    case B.CANCELLED_PAYER:
      return [`${E}CANCELED_PAYER`];
  }
}

/** Why a cobr ended, for `lastError`-style display (rejection or cancel code and description). */
export function closingReason(c: Pick<CobrState, 'encerramento' | 'tentativas'>): string | null {
  const rej = c.encerramento?.rejeicao ?? [...(c.tentativas ?? [])].reverse().find((t) => t.rejeicao)?.rejeicao;
  if (rej?.codigo) return `${rej.codigo}${rej.descricao ? `: ${rej.descricao}` : ''}`;
  const can = c.encerramento?.cancelamento;
  if (can?.codigo) return `${can.codigo}${can.solicitante ? ` (${can.solicitante})` : ''}${can.descricao ? `: ${can.descricao}` : ''}`;
  return null;
}
