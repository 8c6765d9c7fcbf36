/**
 * API Pix recurrence (`rec`) states onto the port's recurrence vocabulary and onto the provider
 * events the Pix Automático module applies (the same ones the `service` protocol sends), as pure
 * tables. The standard has five rec states; who cancelled (`encerramento.cancelamento.solicitante`)
 * and whether the payer had approved before (`atualizacao`) say which of our seven it is.
 *
 * | rec status | encerramento / history                  | port status        | events applied (in order)                         |
 * |------------|-----------------------------------------|--------------------|---------------------------------------------------|
 * | CRIADA     |                                         | PENDING            | none                                              |
 * | APROVADA   |                                         | ACCEPTED (ACTIVE once a billing went out) | RECEIVER_RECURRENCE_APPROVED  |
 * | REJEITADA  | rejeicao AP13/AP14                      | REJECTED           | RECEIVER_RECURRENCE_REJECTED                      |
 * | EXPIRADA   | never APROVADA (authorization window)   | EXPIRED            | RECEIVER_RECURRENCE_EXPIRED                       |
 * | EXPIRADA   | APROVADA before (dataFinal reached)     | EXPIRED            | …_APPROVED, RECEIVER_RECURRENCE_EXPIRED_END_DATE  |
 * | CANCELADA  | USUARIO_RECEBEDOR / PSP_RECEBEDOR        | CANCELLED_RECEIVER | RECEIVER_RECURRENCE_CANCELED                      |
 * | CANCELADA  | USUARIO_PAGADOR / PSP_PAGADOR            | CANCELLED_PAYER    | …_APPROVED, PAYER_RECURRENCE_CANCELED             |
 * | CANCELADA  | no solicitante (a PSP that omits it)     | CANCELLED_RECEIVER | RECEIVER_RECURRENCE_CANCELED                      |
 *
 * A payer can only cancel what they approved, so the payer's cancel is reached through
 * APPROVED (a recurrence still PENDING here moves to ACCEPTED first; a duplicate changes nothing).
 */
import type { BankRecurrenceStatus } from '../bank/bank-provider.port';

export const REC_STATUSES = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const;
export type RecStatus = (typeof REC_STATUSES)[number];

export const REC_CANCEL_REQUESTERS = ['PSP_PAGADOR', 'USUARIO_PAGADOR', 'PSP_RECEBEDOR', 'USUARIO_RECEBEDOR'] as const;
export type RecCancelRequester = (typeof REC_CANCEL_REQUESTERS)[number];

/** What of a rec (as GET /rec/{idRec} answers it) decides our state. */
export interface RecState {
  idRec: string;
  status: RecStatus;
  atualizacao?: { status: string; data: string }[];
  encerramento?: {
    cancelamento?: { solicitante?: string; codigo?: string; descricao?: string };
    rejeicao?: { codigo?: string; descricao?: string };
  };
}

export function isRecStatus(v: unknown): v is RecStatus {
  return typeof v === 'string' && (REC_STATUSES as readonly string[]).includes(v);
}

function byPayer(r: Pick<RecState, 'encerramento'>): boolean {
  const who = r.encerramento?.cancelamento?.solicitante;
  return who === 'USUARIO_PAGADOR' || who === 'PSP_PAGADOR';
}

function wasApproved(r: Pick<RecState, 'atualizacao'>): boolean {
  return (r.atualizacao ?? []).some((u) => u.status === 'APROVADA');
}

/** The port's status of a rec (`refresh`). `billed`: a billing of it went out already (ACTIVE). */
export function recurrenceStatusOfRec(r: Pick<RecState, 'status' | 'encerramento'>, billed = false): BankRecurrenceStatus {
  switch (r.status) {
    case 'CRIADA':
      return 'PENDING';
    case 'APROVADA':
      return billed ? 'ACTIVE' : 'ACCEPTED';
    case 'REJEITADA':
      return 'REJECTED';
    case 'EXPIRADA':
      return 'EXPIRED';
    case 'CANCELADA':
      return byPayer(r) ? 'CANCELLED_PAYER' : 'CANCELLED_RECEIVER';
  }
}

const E = 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_';

/** The provider events that take a recurrence to where the rec is, in order (applied idempotently). */
export function recEventsToReach(r: Pick<RecState, 'status' | 'encerramento' | 'atualizacao'>): string[] {
  switch (r.status) {
    case 'CRIADA':
      return [];
    case 'APROVADA':
      return [`${E}APPROVED`];
    case 'REJEITADA':
      return [`${E}REJECTED`];
    case 'EXPIRADA':
      return wasApproved(r) ? [`${E}APPROVED`, `${E}EXPIRED_END_DATE`] : [`${E}EXPIRED`];
    case 'CANCELADA':
      return byPayer(r) ? [`${E}APPROVED`, 'PIX_AUTOMATIC_PAYER_RECURRENCE_CANCELED'] : [`${E}CANCELED`];
  }
}

/** Our periodicities in API Pix: the standard has five; DAILY and BIMONTHLY have none. */
export const PERIODICIDADE: Readonly<Record<string, string | undefined>> = {
  WEEKLY: 'SEMANAL',
  MONTHLY: 'MENSAL',
  QUARTERLY: 'TRIMESTRAL',
  BIANNUAL: 'SEMESTRAL',
  ANNUAL: 'ANUAL',
};
