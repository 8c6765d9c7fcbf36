/**
 * Delivery retry schedule of outbound webhooks (at least once, from the outbox).
 *
 * Attempt n waits DELIVERY_SCHEDULE_SECONDS[n - 1] after the previous attempt failed (the
 * first attempt goes at once): 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h. After the 8th
 * attempt fails the delivery is dead (`null`).
 *
 * A `Retry-After` from the receiver's last response (delay-seconds or an HTTP date) is
 * honoured: the delay is the larger of the schedule's and Retry-After's, with Retry-After
 * capped at 24 h so a receiver cannot park a delivery for longer than the schedule's longest
 * step. Retry-After never revives a dead delivery and never adds attempts. An unparseable or
 * past Retry-After is ignored.
 */
import { RetryScheduleError } from './errors';

export const DELIVERY_SCHEDULE_SECONDS: readonly number[] = Object.freeze([
  0,
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  24 * 3600,
]);
export const MAX_DELIVERY_ATTEMPTS = DELIVERY_SCHEDULE_SECONDS.length;
export const RETRY_AFTER_CAP_SECONDS = 24 * 3600;

const IMF_FIXDATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const RFC850_DATE = /^[A-Z][a-z]+, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT$/;
const ASCTIME_DATE = /^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

/**
 * Milliseconds to wait before attempt number `attemptNumber` (1 = the first delivery), or
 * `null` when no such attempt exists (the delivery is dead).
 */
export function nextAttemptDelay(attemptNumber: number, retryAfterHeader?: string | null, now: Date = new Date()): number | null {
  if (!Number.isSafeInteger(attemptNumber) || attemptNumber < 1) {
    throw new RetryScheduleError('attemptNumber must be a whole number >= 1');
  }
  if (attemptNumber > MAX_DELIVERY_ATTEMPTS) return null;
  const scheduled = DELIVERY_SCHEDULE_SECONDS[attemptNumber - 1] * 1000;
  const retryAfter = parseRetryAfter(retryAfterHeader, now);
  if (retryAfter === null) return scheduled;
  return Math.max(scheduled, Math.min(retryAfter, RETRY_AFTER_CAP_SECONDS * 1000));
}

/** The moment attempt `attemptNumber` is due, or `null` when the delivery is dead. */
export function nextAttemptAt(attemptNumber: number, retryAfterHeader?: string | null, now: Date = new Date()): Date | null {
  const delay = nextAttemptDelay(attemptNumber, retryAfterHeader, now);
  return delay === null ? null : new Date(now.getTime() + delay);
}

/**
 * `Retry-After` as milliseconds from `now` (never negative), or `null` when absent or not a
 * valid delay-seconds / HTTP-date (IMF-fixdate, RFC 850 or asctime, all GMT).
 */
export function parseRetryAfter(header: string | null | undefined, now: Date = new Date()): number | null {
  if (typeof header !== 'string') return null;
  const value = header.trim();
  if (value === '') return null;
  if (/^\d+$/.test(value)) {
    const seconds = Number(value);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : RETRY_AFTER_CAP_SECONDS * 1000;
  }
  let at: number;
  if (IMF_FIXDATE.test(value) || RFC850_DATE.test(value)) at = Date.parse(value);
  else if (ASCTIME_DATE.test(value)) at = Date.parse(`${value} GMT`);
  else return null;
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
