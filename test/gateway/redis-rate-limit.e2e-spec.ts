import { createServer, Server, Socket, connect } from 'node:net';
import { http, startTestApp } from '../support/test-app';
import { eventually, freshRateWindow, onboardTenant } from '../support/tenant-auth';

const REDIS_URL = process.env.REDIS_URL;
const JWT = { JWT_SIGNING_KEYS: 'k1:redis-test-signing-secret-0123456789' };
const d = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('REDIS_URL is not set: the shared rate-limit tests are skipped');

/** A TCP relay in front of Redis that the test can cut, as if Redis went away. */
async function relay(target: URL): Promise<{ url: string; cut: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((c) => {
    const up = connect(Number(target.port || 6379), target.hostname);
    sockets.add(c).add(up);
    c.pipe(up).pipe(c);
    const end = () => {
      c.destroy();
      up.destroy();
    };
    c.on('error', end).on('close', end);
    up.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as import('node:net').AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    cut: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

d('rate limit shared through Redis', () => {
  it('two instances on one Redis let 100 requests pass in total, not 200', async () => {
    const a = await startTestApp({ env: { ...JWT, REDIS_URL: REDIS_URL! } });
    const b = await startTestApp({ databaseUrl: a.databaseUrl, env: { ...JWT, REDIS_URL: REDIS_URL! } });
    try {
      const o = await onboardTenant(a);
      await freshRateWindow(5000);
      const path = `/v1/banking/accounts/${o.tenantId}/limits`;
      const statuses: number[] = [];
      for (let i = 0; i < 110; i++) {
        const r = await http(i % 2 ? b.url : a.url, 'GET', path, undefined, o.auth);
        statuses.push(r.status);
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(100);
      expect(statuses.slice(100)).toEqual(Array(10).fill(429));
      const ready = await http(a.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': a.adminKey });
      expect(ready.body.details.rateLimitStore).toEqual({ status: 'up', store: 'redis' });
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('keeps serving from the in-process store when Redis goes away, logs it once and reports degraded', async () => {
    const r = await relay(new URL(REDIS_URL!));
    const t = await startTestApp({ env: { ...JWT, REDIS_URL: r.url } });
    try {
      const o = await onboardTenant(t, { rateLimitPerMinute: 5 });
      expect((await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey })).body.details.rateLimitStore.store).toBe(
        'redis',
      );
      await r.cut();
      await freshRateWindow(5000);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth)).status);
      // still limited, now per replica
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      await eventually(
        async () =>
          (await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey })).body.details.rateLimitStore.degraded ===
          true,
        3000,
      );
      const ready = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
      expect(ready.status).toBe(200);
      // readiness stays 200 (serving) but says it is degraded
      expect(ready.body.details.rateLimitStore).toMatchObject({ status: 'up', store: 'memory', degraded: true });
      const lines = t
        .logs()
        .split('\n')
        .filter((l) => l.includes('Redis unreachable'));
      expect(lines).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
