import { classifyAttempt, responseSnippet } from './attempt-outcome';

const NOW = new Date('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const resp = (statusCode: number, retryAfter?: string) => ({
  kind: 'response' as const,
  statusCode,
  retryAfter,
  snippet: null,
  latencyMs: 5,
});

describe('classifyAttempt', () => {
  it('2xx is delivered', () => {
    for (const code of [200, 201, 204, 299]) {
      expect(classifyAttempt(resp(code), 1, NOW)).toEqual({
        status: 'DELIVERED',
        nextAttemptAt: null,
        outcome: 'delivered',
        statusCode: code,
        error: null,
      });
    }
  });

  it('410 is gone: the delivery is cancelled (the endpoint gets disabled)', () => {
    expect(classifyAttempt(resp(410), 3, NOW)).toEqual({
      status: 'CANCELLED',
      nextAttemptAt: null,
      outcome: 'gone',
      statusCode: 410,
      error: 'endpoint_gone',
    });
  });

  it('any other answer fails and follows the schedule: 5 s after the 1st attempt, 5 min after the 2nd', () => {
    expect(classifyAttempt(resp(500), 1, NOW)).toMatchObject({
      status: 'PENDING',
      nextAttemptAt: at(5000),
      outcome: 'failed',
      statusCode: 500,
      error: 'http_500',
    });
    expect(classifyAttempt(resp(302), 2, NOW)).toMatchObject({ status: 'PENDING', nextAttemptAt: at(300000), error: 'http_302' });
    expect(classifyAttempt(resp(400), 7, NOW)).toMatchObject({ status: 'PENDING', nextAttemptAt: at(24 * 3600000) });
  });

  it('honours Retry-After when longer than the schedule', () => {
    expect(classifyAttempt(resp(429, '120'), 1, NOW).nextAttemptAt).toEqual(at(120000));
    expect(classifyAttempt(resp(503, '1'), 1, NOW).nextAttemptAt).toEqual(at(5000));
  });

  it('the 8th failed attempt makes the delivery dead', () => {
    expect(classifyAttempt(resp(500), 8, NOW)).toMatchObject({ status: 'DEAD', nextAttemptAt: null, outcome: 'failed' });
    expect(classifyAttempt({ kind: 'error', error: 'ECONNREFUSED', refused: false, latencyMs: 1 }, 8, NOW)).toMatchObject({
      status: 'DEAD',
    });
  });

  it('network errors fail; a refused target is told apart', () => {
    expect(classifyAttempt({ kind: 'error', error: 'timeout after 10000 ms', refused: false, latencyMs: 10000 }, 1, NOW)).toMatchObject({
      status: 'PENDING',
      outcome: 'failed',
      statusCode: null,
      error: 'timeout after 10000 ms',
    });
    expect(classifyAttempt({ kind: 'error', error: 'target_not_allowed: loopback', refused: true, latencyMs: 0 }, 1, NOW)).toMatchObject({
      outcome: 'refused',
    });
  });

  it('keeps error text short and free of NUL', () => {
    const c = classifyAttempt({ kind: 'error', error: `a\u0000${'b'.repeat(1000)}`, refused: false, latencyMs: 1 }, 1, NOW);
    expect(c.error).toHaveLength(300);
    expect(c.error).not.toContain('\u0000');
  });
});

describe('responseSnippet', () => {
  it('keeps at most 1 KiB of UTF-8 and never a broken character', () => {
    expect(responseSnippet(Buffer.alloc(0))).toBeNull();
    expect(responseSnippet(Buffer.from('{"ok":true}'))).toBe('{"ok":true}');
    const ascii = responseSnippet(Buffer.from('x'.repeat(5000)))!;
    expect(Buffer.byteLength(ascii)).toBe(1024);
    for (let shift = 0; shift < 4; shift++) {
      const text = 'a'.repeat(shift) + 'ção😀'.repeat(400);
      const s = responseSnippet(Buffer.from(text))!;
      expect(Buffer.byteLength(s)).toBeLessThanOrEqual(1024);
      expect(Buffer.byteLength(s)).toBeGreaterThan(1010);
      expect(text.startsWith(s)).toBe(true);
    }
  });

  it('drops NUL bytes (PostgreSQL text cannot hold them)', () => {
    expect(responseSnippet(Buffer.from('a\u0000b'))).toBe('ab');
  });
});
