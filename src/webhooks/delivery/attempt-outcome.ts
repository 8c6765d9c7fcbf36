/**
 * Pure rules that turn what the receiver did into the delivery's next state:
 * 2xx delivered; 410 gone (the endpoint is disabled, the delivery cancelled); anything else
 * (other statuses, redirects included, network errors, timeouts, a refused target) is a failed
 * attempt whose next one follows the schedule (0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h,
 * with Retry-After honoured), or dead after the 8th.
 */
import { afterAttempt } from '../domain/delivery.state-machine';
import { nextAttemptAt } from '../domain/retry-schedule';
import { AttemptOutcome } from '../outbox/outbox.store';

export type HttpOutcome =
  | { kind: 'response'; statusCode: number; retryAfter?: string; snippet: string | null; latencyMs: number }
  | { kind: 'error'; error: string; refused: boolean; latencyMs: number };

export interface Classified {
  status: 'PENDING' | 'DELIVERED' | 'DEAD' | 'CANCELLED';
  nextAttemptAt: Date | null;
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
}

export const SNIPPET_MAX_BYTES = 1024;
export const ERROR_MAX_CHARS = 300;

export function classifyAttempt(http: HttpOutcome, attempt: number, now: Date): Classified {
  if (http.kind === 'response') {
    const code = http.statusCode;
    if (code >= 200 && code < 300)
      return { status: afterAttempt('delivered'), nextAttemptAt: null, outcome: 'delivered', statusCode: code, error: null };
    if (code === 410)
      return { status: afterAttempt('endpoint_gone'), nextAttemptAt: null, outcome: 'gone', statusCode: code, error: 'endpoint_gone' };
    return failed(attempt, now, http.retryAfter, 'failed', code, `http_${code}`);
  }
  return failed(attempt, now, undefined, http.refused ? 'refused' : 'failed', null, cleanText(http.error, ERROR_MAX_CHARS));
}

function failed(
  attempt: number,
  now: Date,
  retryAfter: string | undefined,
  outcome: AttemptOutcome,
  code: number | null,
  error: string,
): Classified {
  const next = nextAttemptAt(attempt + 1, retryAfter, now);
  return { status: afterAttempt(next ? 'attempt_failed' : 'attempts_exhausted'), nextAttemptAt: next, outcome, statusCode: code, error };
}

/** Text safe for a PostgreSQL `text` column: no NUL, at most `maxChars` characters. */
export function cleanText(s: string, maxChars: number): string {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/\u0000/g, '');
  return t.length > maxChars ? t.slice(0, maxChars) : t;
}

/** The first bytes of a response body as text: at most 1 KiB of UTF-8, never a broken character, no NUL. */
export function responseSnippet(body: Buffer): string | null {
  if (!body.length) return null;
  let text = cleanText(body.subarray(0, SNIPPET_MAX_BYTES + 4).toString('utf8'), SNIPPET_MAX_BYTES + 4);
  while (Buffer.byteLength(text, 'utf8') > SNIPPET_MAX_BYTES) text = text.slice(0, -1);
  return text;
}
