/**
 * How the sandbox PSP shows a cobr (API Pix CobRCompleta / CobRGerada / CobRNotification), and
 * the test-data rules of its settlement attempts.
 */
import { randomBytes } from 'node:crypto';
import { Attempt, cobrStatusOf, CobrRow } from './psp-cobr.store';

export function reais(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The retry policy an idRec carries (its second letter: R allows retries, N does not). */
export function retryPolicyOf(idRec: string): 'PERMITE_3R_7D' | 'NAO_PERMITE' {
  return idRec.charAt(1) === 'R' ? 'PERMITE_3R_7D' : 'NAO_PERMITE';
}

/** A 32-character endToEndId in the Pix shape: E + ISPB (8) + yyyyMMddHHmm + 11 random. */
export function endToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-T:]/g, '').slice(0, 12);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const rnd = [...randomBytes(11)].map((b) => alphabet[b % alphabet.length]).join('');
  return `E00000000${stamp}${rnd}`;
}

/** How a cobr ended, when the row does not say: a cancel of the bank's own paths (a recurrence cancelled) names who asked. */
function encerramentoOf(c: CobrRow): Record<string, unknown> | undefined {
  if (c.encerramento) return c.encerramento;
  if (c.status === 'CANCELLED_RECEIVER')
    return {
      cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento solicitado pelo usuário recebedor' },
    };
  if (c.status === 'CANCELLED_PAYER')
    return { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLBD', descricao: 'Cancelamento solicitado pelo usuário pagador' } };
  return undefined;
}

function saoPauloDate(d: Date): string {
  return new Date(new Date(d).getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
}

/** CobRCompleta (GET, PATCH, retentativa, list items). */
export function cobrView(c: CobrRow): Record<string, unknown> {
  const enc = encerramentoOf(c);
  return {
    idRec: c.idRec,
    txid: c.txid,
    calendario: { criacao: saoPauloDate(c.createdAt), dataDeVencimento: c.dueDate },
    valor: { original: reais(c.amountCents) },
    ajusteDiaUtil: c.ajusteDiaUtil,
    recebedor: c.receiver,
    status: cobrStatusOf(c.status),
    politicaRetentativa: retryPolicyOf(c.idRec),
    atualizacao: c.history,
    ...(c.tentativas.length ? { tentativas: c.tentativas } : {}),
    ...(enc ? { encerramento: enc } : {}),
  };
}

/** CobRNotification (an item of a `cobsr[]` callback). */
export function cobrNotification(c: CobrRow): Record<string, unknown> {
  const enc = encerramentoOf(c);
  return {
    idRec: c.idRec,
    txid: c.txid,
    status: cobrStatusOf(c.status),
    atualizacao: c.history,
    ...(c.tentativas.length ? { tentativas: c.tentativas } : {}),
    ...(enc ? { encerramento: enc } : {}),
  };
}

/**
 * The payer's side of one attempt, by the cents of the amount (the sandbox bank's rule, extended
 * for attempts): .51 no balance on every attempt; .54 no balance on the scheduled attempt (AGND),
 * paid on a retry (NTAG); .52 not paid (the attempt expires); .53 the payer cancels; else paid.
 */
export type AttemptOutcome = 'PAGA' | 'NO_BALANCE' | 'EXPIRADA' | 'CANCELLED_PAYER';

export function attemptOutcome(amountCents: number, tipo: 'AGND' | 'NTAG'): AttemptOutcome {
  switch (amountCents % 100) {
    case 51:
      return 'NO_BALANCE';
    case 54:
      return tipo === 'AGND' ? 'NO_BALANCE' : 'PAGA';
    case 52:
      return 'EXPIRADA';
    case 53:
      return 'CANCELLED_PAYER';
    default:
      return 'PAGA';
  }
}

/**
 * The rejection code the sandbox gives a failed attempt for lack of balance. The standard's list
 * names no "insufficient funds" code; AM02 is one of the codes it does *not* list as ending the
 * cobr, so the retry policy applies to it.
 */
export const NO_BALANCE = { codigo: 'AM02', descricao: 'Saldo insuficiente na conta do pagador (sandbox)' };

export function newAttempt(date: string, tipo: 'AGND' | 'NTAG', at: Date): Attempt {
  const t = at.toISOString();
  return {
    dataLiquidacao: date,
    tipo,
    status: 'AGENDADA',
    endToEndId: endToEndId(at),
    atualizacao: [
      { status: 'SOLICITADA', data: t },
      { status: 'AGENDADA', data: t },
    ],
  };
}
