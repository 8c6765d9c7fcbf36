import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnService, ServiceProcess } from '../support/service-process';
import { decodeJwt, handSignedJwt, onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { freshDatabase, http, TEST_ADMIN_KEY, TestApp } from '../support/test-app';

const SECRET = 'hostile-tokens-signing-secret-0123456789';

/** Resident memory of a process, in bytes (Linux). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m![1]) * 1024;
}

/** `n` requests, `width` at a time; each answer's status and error code counted. */
async function flood(url: string, tokens: (i: number) => string, n: number, width = 16): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < n; i = next++) {
        const r = await http(url, 'GET', '/v1/banking/accounts/x/limits', undefined, { Authorization: `Bearer ${tokens(i)}` });
        const key = `${r.status} ${r.body?.error}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    }),
  );
  return seen;
}

/**
 * One valid token written 10 000 other ways (characters outside the alphabet, padding, spare bits,
 * kilobytes of ignored text) must each be refused, and must not pin memory: the verified-token
 * store keys on the exact text, so every accepted variant would be a new entry.
 */
describe('hostile tokens', () => {
  let s: ServiceProcess;
  let o: OnboardedTenant;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await freshDatabase('hostile');
    drop = db.drop;
    s = await spawnService(
      {
        DATABASE_URL: db.url,
        REDIS_URL: '',
        ADMIN_API_KEY: TEST_ADMIN_KEY,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'pp-hostile-')),
        JWT_SIGNING_KEYS: `k1:${SECRET}`,
        REFUSED_TOKENS_PER_MINUTE_PER_IP: '1000000',
      },
      undefined,
      { sandbox: true },
    ); // the limits route asks the sandbox bank
    await s.waitReady();
    o = await onboardTenant({ url: s.url, adminKey: TEST_ADMIN_KEY } as TestApp);
  });

  afterAll(async () => {
    s?.proc.kill('SIGKILL');
    await s?.exited;
    await drop?.();
  });

  it('10 000 non-canonical variants of a valid token and of an expired one: each 401 in the envelope, memory grows < 20 MB', async () => {
    const valid = o.token;
    const claims = decodeJwt(valid).claims;
    const expired = handSignedJwt('k1', SECRET, { ...claims, iat: claims.iat - 7200, exp: claims.iat - 3600 });
    expect((await http(s.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth)).status).toBe(200);
    const filler = 'x'.repeat(12_000);
    const variant = (base: string, i: number): string => {
      const n = String(i);
      switch (i % 4) {
        case 0: // ignored characters after the signature, kilobytes of them
          return `${base}!${n}${filler}`;
        case 1: // characters outside the alphabet inside the payload
          return base.replace('.', `.~${n}~`);
        case 2: // padding, then more
          return `${base}=${'='.repeat(i % 7)}${n}`;
        default: // base64 (not base64url) characters inside the signature
          return `${base.slice(0, -8)}+/${n}${base.slice(-8)}`;
      }
    };
    // A first flood of other variants grows the heap to what this traffic needs (garbage, not
    // kept); the measured flood then adds only what is kept.
    await flood(s.url, (i) => variant(i % 2 ? valid : expired, i + 10_000), 10_000);
    const before = rss(s.proc.pid!);
    const seen = await flood(s.url, (i) => variant(i % 2 ? valid : expired, i), 10_000);
    expect([...seen.entries()]).toEqual([['401 invalid_token', 10_000]]);
    await new Promise((r) => setTimeout(r, 500));
    const grown = rss(s.proc.pid!) - before;
    expect(grown).toBeLessThan(20 * 1024 * 1024);
    // the envelope of one of them
    const one = await http(s.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, { Authorization: `Bearer ${valid}!!!` });
    expect(one.status).toBe(401);
    expect(one.body).toMatchObject({ statusCode: 401, error: 'invalid_token', requestId: expect.any(String) });
    expect(one.text).not.toContain(valid);
    // and the token itself still works
    expect((await http(s.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth)).status).toBe(200);
  }, 180_000);
});

describe('refused tokens cost the caller', () => {
  let s: ServiceProcess;
  let drop: () => Promise<void>;

  afterAll(async () => {
    s?.proc.kill('SIGKILL');
    await s?.exited;
    await drop?.();
  });

  it('past REFUSED_TOKENS_PER_MINUTE_PER_IP refusals an IP gets 429 with Retry-After; a valid token from it still passes', async () => {
    const db = await freshDatabase('refused');
    drop = db.drop;
    s = await spawnService(
      {
        DATABASE_URL: db.url,
        REDIS_URL: '',
        ADMIN_API_KEY: TEST_ADMIN_KEY,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'pp-refused-')),
        REFUSED_TOKENS_PER_MINUTE_PER_IP: '5',
      },
      undefined,
      { sandbox: true },
    ); // the limits route asks the sandbox bank
    await s.waitReady();
    const o = await onboardTenant({ url: s.url, adminKey: TEST_ADMIN_KEY } as TestApp);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await http(s.url, 'GET', '/v1/banking/accounts/x/limits', undefined, { Authorization: `Bearer bad${i}` })).status);
    // a minute window may turn between two calls: then the count starts again
    const first429 = statuses.indexOf(429);
    expect(first429 === 5 || statuses.every((x) => x === 401)).toBe(true);
    const again = await http(s.url, 'GET', '/v1/banking/accounts/x/limits', undefined, { Authorization: 'Bearer bad' });
    if (again.status === 429) {
      expect(again.body).toMatchObject({ error: 'rate_limited' });
      expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect((await http(s.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth)).status).toBe(200);
  });
});
