/**
 * The retry policy of API Pix (pure): a recurrence created with `politicaRetentativa`
 * PERMITE_3R_7D (an idRec starting `RR`) lets the receiver ask for up to 3 new settlement
 * attempts (`POST /cobr/{txid}/retentativa/{data}`, tentativa type NTAG) within 7 days after the
 * due date, when an attempt failed without ending the cobr (e.g. the payer had no balance).
 *
 * The standard lists the rejection codes that end the cobr at once (REJEITADA): no retry helps
 * them. Any other failed attempt (REJEITADA with another code, or EXPIRADA) is retried on the next
 * day, while the budget lasts.
 */
import { CobrState } from './cobr-status.map';

export const MAX_RETRIES = 3;
export const RETRY_DAYS_AFTER_DUE = 7;

/** "Os códigos … AC05, AM09, DENC, DS27, DTED, MIDI, MSUC, NITX, RC09 … causam a rejeição da cobrança recorrente." */
export const TERMINAL_REJECTION_CODES: readonly string[] = ['AC05', 'AM09', 'DENC', 'DS27', 'DTED', 'MIDI', 'MSUC', 'NITX', 'RC09'];

function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The date to ask a retry for, or null when none is due (or allowed). `today` is São Paulo's. */
export function retryDate(c: CobrState, today: string): string | null {
  if (c.status !== 'ATIVA' || c.politicaRetentativa !== 'PERMITE_3R_7D') return null;
  const attempts = c.tentativas ?? [];
  if (!attempts.length) return null;
  if (attempts.some((t) => t.status === 'SOLICITADA' || t.status === 'AGENDADA')) return null;
  const last = attempts.reduce((a, b) => (b.dataLiquidacao >= a.dataLiquidacao ? b : a));
  if (last.status !== 'REJEITADA' && last.status !== 'EXPIRADA') return null;
  if (last.rejeicao && TERMINAL_REJECTION_CODES.includes(last.rejeicao.codigo)) return null;
  if (attempts.filter((t) => t.tipo === 'NTAG').length >= MAX_RETRIES) return null;
  const due = c.calendario?.dataDeVencimento;
  if (!due) return null;
  const next = addDays(today > last.dataLiquidacao ? today : last.dataLiquidacao, 1);
  return next <= addDays(due, RETRY_DAYS_AFTER_DUE) ? next : null;
}
