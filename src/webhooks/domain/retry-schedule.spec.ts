import { RetryScheduleError } from './errors';
import {
  DELIVERY_SCHEDULE_SECONDS,
  MAX_DELIVERY_ATTEMPTS,
  nextAttemptAt,
  nextAttemptDelay,
  parseRetryAfter,
  RETRY_AFTER_CAP_SECONDS,
} from './retry-schedule';

const NOW = new Date('2025-03-10T12:00:00.000Z');
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

describe('nextAttemptDelay', () => {
  it('follows 0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h, then dead', () => {
    const delays = Array.from({ length: 9 }, (_, i) => nextAttemptDelay(i + 1, undefined, NOW));
    expect(delays).toEqual([0, 5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 24 * H, null]);
    expect(MAX_DELIVERY_ATTEMPTS).toBe(8);
    expect(DELIVERY_SCHEDULE_SECONDS).toHaveLength(8);
    expect(nextAttemptDelay(100, undefined, NOW)).toBeNull();
  });

  it('uses Retry-After seconds when longer than the schedule', () => {
    expect(nextAttemptDelay(2, '120', NOW)).toBe(120 * S);
    expect(nextAttemptDelay(2, ' 3 ', NOW)).toBe(5 * S);
    expect(nextAttemptDelay(3, '60', NOW)).toBe(5 * MIN);
    expect(nextAttemptDelay(5, '0', NOW)).toBe(2 * H);
  });

  it('uses a Retry-After HTTP date when later than the schedule', () => {
    expect(nextAttemptDelay(2, 'Mon, 10 Mar 2025 12:10:00 GMT', NOW)).toBe(10 * MIN);
    expect(nextAttemptDelay(4, 'Mon, 10 Mar 2025 12:10:00 GMT', NOW)).toBe(30 * MIN);
    expect(nextAttemptDelay(2, 'Mon, 10 Mar 2025 11:00:00 GMT', NOW)).toBe(5 * S);
  });

  it('caps Retry-After at 24 h', () => {
    expect(nextAttemptDelay(2, String(7 * 24 * 3600), NOW)).toBe(24 * H);
    expect(nextAttemptDelay(2, '99999999999999999999999', NOW)).toBe(24 * H);
    expect(nextAttemptDelay(2, 'Wed, 19 Mar 2025 12:00:00 GMT', NOW)).toBe(24 * H);
    expect(nextAttemptDelay(8, '999999', NOW)).toBe(24 * H);
  });

  it('never revives a dead delivery', () => {
    expect(nextAttemptDelay(9, '10', NOW)).toBeNull();
  });

  it('ignores an invalid Retry-After', () => {
    for (const header of ['soon', '-5', '1.5', '10 seconds', 'Mon, 32 Mar 2025 12:00:00 GMT', '', null]) {
      expect(nextAttemptDelay(3, header, NOW)).toBe(5 * MIN);
    }
  });

  it('rejects attempt numbers that are not whole numbers >= 1 with a typed error', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) {
      expect(() => nextAttemptDelay(n, undefined, NOW)).toThrow(RetryScheduleError);
    }
    try {
      nextAttemptDelay(0);
    } catch (err) {
      expect((err as RetryScheduleError).code).toBe('invalid_attempt_number');
    }
  });

  it('defaults now to the current time', () => {
    expect(nextAttemptDelay(2)).toBe(5 * S);
  });
});

describe('nextAttemptAt', () => {
  it('adds the delay to now', () => {
    expect(nextAttemptAt(1, undefined, NOW)?.toISOString()).toBe('2025-03-10T12:00:00.000Z');
    expect(nextAttemptAt(3, undefined, NOW)?.toISOString()).toBe('2025-03-10T12:05:00.000Z');
    expect(nextAttemptAt(8, '1', NOW)?.toISOString()).toBe('2025-03-11T12:00:00.000Z');
    expect(nextAttemptAt(9, undefined, NOW)).toBeNull();
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0);
    expect(parseRetryAfter('42', NOW)).toBe(42 * S);
  });

  it('reads the three HTTP date formats as GMT', () => {
    expect(parseRetryAfter('Mon, 10 Mar 2025 12:01:00 GMT', NOW)).toBe(MIN);
    expect(parseRetryAfter('Monday, 10-Mar-25 12:01:00 GMT', NOW)).toBe(MIN);
    expect(parseRetryAfter('Mon Mar 10 12:01:00 2025', NOW)).toBe(MIN);
    expect(parseRetryAfter('Mon Mar  3 12:00:00 2025', NOW)).toBe(0);
  });

  it('returns 0 for a past date and null for garbage', () => {
    expect(parseRetryAfter('Sun, 09 Mar 2025 12:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('2025-03-10T12:01:00Z', NOW)).toBeNull();
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
  });

  it('has a 24 h cap constant', () => {
    expect(RETRY_AFTER_CAP_SECONDS).toBe(86400);
  });
});
