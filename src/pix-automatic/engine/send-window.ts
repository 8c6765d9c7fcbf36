/**
 * When a billing may go to the provider (pure). The Central Bank's Pix Automático rule: the
 * instruction reaches the PSP between `maxDays` and `minDays` days before the (adjusted) due
 * date (10 and 2 by default, PIX_API_BILLING_SEND_MAX_DAYS / _MIN_DAYS). With the `pix-api`
 * provider the engine keeps to it: a billing is not sent before its first send day (it waits,
 * leased until then, with no attempt counted) nor retried after its last one (SEND_FAILED for
 * good, "send window closed"). The `service` provider keeps its own rule: any time up to the due
 * date (`window` null).
 */
import { addDays } from '../domain/calendar';

export interface SendWindowDays {
  minDays: number;
  maxDays: number;
}

export type SendVerdict = { kind: 'send' } | { kind: 'wait'; until: string } | { kind: 'closed'; reason: string };

/** First and last São Paulo day on which a billing due `dueDate` may be sent. */
export function sendDays(dueDate: string, window: SendWindowDays | null): { first: string | null; last: string } {
  if (!window) return { first: null, last: dueDate };
  return { first: addDays(dueDate, -window.maxDays), last: addDays(dueDate, -window.minDays) };
}

/** Whether a billing due `dueDate` may be sent on `today`. */
export function sendVerdict(dueDate: string, today: string, window: SendWindowDays | null): SendVerdict {
  const { first, last } = sendDays(dueDate, window);
  if (today > last) {
    return {
      kind: 'closed',
      reason: window
        ? `send window closed: a billing due ${dueDate} must reach the PSP by ${last} (${window.minDays} days before)`
        : 'due date passed before the billing could be sent',
    };
  }
  if (first && today < first) return { kind: 'wait', until: first };
  return { kind: 'send' };
}

/** Midnight in São Paulo (UTC−3, no daylight saving since 2019) at the start of `day`. */
export function startOfSaoPauloDay(day: string): Date {
  return new Date(`${day}T03:00:00.000Z`);
}
