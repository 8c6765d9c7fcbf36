import { BreakerRegistry } from '../../kernel/platform/resilience/breaker-registry';
import { http, startTestApp, TestApp } from '../support/test-app';
import { acquiringEvent, createTenant, endpoints, FAST_ENV, publish, Receiver, waitFor } from './support';

async function statusCounts(t: TestApp, tenantId: string): Promise<Record<string, number>> {
  const rows = await t.sql(`SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 GROUP BY status`, [tenantId]);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

async function eventIds(t: TestApp, tenantId: string): Promise<string[]> {
  return (await t.sql(`SELECT id FROM webhook_events WHERE tenant_id = $1 ORDER BY id`, [tenantId])).map((r) => r.id);
}

describe('receiver down for a while, then up', () => {
  let t: TestApp;
  const rx = new Receiver();
  beforeAll(async () => {
    t = await startTestApp({ env: FAST_ENV });
  });
  afterAll(async () => {
    await t.close();
    await rx.stop();
  });

  it('every event arrives once it is back, none lost', async () => {
    await rx.start();
    const port = rx.port;
    await rx.stop(); // the port is known, nothing listens: connections are refused
    const tenant = await createTenant(t);
    await endpoints(t).registerAcquiring(tenant, { url: `http://127.0.0.1:${port}/hooks` });
    await publish(
      t,
      Array.from({ length: 30 }, (_, i) => acquiringEvent(tenant, i)),
    );

    // The first attempts fail (connection refused) and the host's breaker opens: the rest wait untried.
    await waitFor('the breaker to open', () => t.app.get(BreakerRegistry).states()[`webhook:127.0.0.1:${port}`] === 'open');
    await waitFor(
      'failed attempts recorded',
      async () => (await t.sql(`SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE outcome = 'failed'`))[0].n >= 5,
    );
    const errors = await t.sql(`SELECT DISTINCT error FROM webhook_delivery_attempts`);
    expect(errors.map((e) => e.error).join()).toMatch(/ECONNREFUSED/);
    expect(await statusCounts(t, tenant)).toEqual({ PENDING: 30 });

    // Still down after 10 minutes of clock time: more attempts fail, nothing is lost or dead.
    await t.advanceClock(10 * 60 * 1000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await statusCounts(t, tenant)).toEqual({ PENDING: 30 });

    await rx.start(port);
    await t.advanceClock(60 * 60 * 1000);
    await waitFor('every delivery recorded as delivered', async () => (await statusCounts(t, tenant)).DELIVERED === 30, 20000);
    expect(new Set(rx.ids())).toEqual(new Set(await eventIds(t, tenant)));
    const attempts = await t.sql(`SELECT d.attempts FROM webhook_deliveries d WHERE d.tenant_id = $1`, [tenant]);
    expect(attempts.every((a) => a.attempts >= 1 && a.attempts < 8)).toBe(true);
    expect(attempts.some((a) => a.attempts >= 2)).toBe(true);
    await waitFor('the breaker to close', () => t.app.get(BreakerRegistry).states()[`webhook:127.0.0.1:${port}`] === 'closed');
  });
});

describe('a receiver that hangs', () => {
  let t: TestApp;
  const slow = new Receiver();
  const fast = new Receiver();
  beforeAll(async () => {
    await slow.start();
    await fast.start();
    slow.answer = () => 'hang';
    t = await startTestApp({
      env: {
        ...FAST_ENV,
        WEBHOOK_TIMEOUT_MS: '1500',
        WEBHOOK_LEASE_MARGIN_MS: '20000',
        WEBHOOK_CONCURRENCY: '8',
        WEBHOOK_MAX_IN_FLIGHT_PER_HOST: '4',
        WEBHOOK_BATCH_SIZE: '20',
        WEBHOOK_BREAKER_RESET_MS: '60000',
        WEBHOOK_BREAKER_VOLUME_THRESHOLD: '3',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await slow.stop();
    await fast.stop();
  });

  it('times out, opens its breaker, and cannot starve another tenant', async () => {
    const stuck = await createTenant(t, 'stuck');
    const other = await createTenant(t, 'other');
    await endpoints(t).registerAcquiring(stuck, { url: slow.url });
    await endpoints(t).registerAcquiring(other, { url: fast.url });
    // The stuck tenant's events go first and outnumber the worker's slots.
    await publish(
      t,
      Array.from({ length: 40 }, (_, i) => acquiringEvent(stuck, i)),
    );
    const started = Date.now();
    await publish(
      t,
      Array.from({ length: 40 }, (_, i) => acquiringEvent(other, i)),
    );

    await waitFor('the other tenant served', async () => (await statusCounts(t, other)).DELIVERED === 40, 10000);
    const otherDone = Date.now() - started;
    // All of it while the stuck receiver's first sends were still hanging (timeout 1.5 s).
    expect(otherDone).toBeLessThan(1500);
    expect(new Set(fast.ids())).toEqual(new Set(await eventIds(t, other)));

    await waitFor(
      'the timeouts recorded',
      async () => (await t.sql(`SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE error LIKE 'timeout%'`))[0].n >= 3,
    );
    await waitFor('the breaker to open', () => t.app.get(BreakerRegistry).states()[`webhook:127.0.0.1:${slow.port}`] === 'open');
    const timeouts = await t.sql(`SELECT latency_ms, error FROM webhook_delivery_attempts WHERE error LIKE 'timeout%'`);
    for (const a of timeouts) {
      expect(a.error).toBe('timeout after 1500 ms');
      expect(a.latency_ms).toBeGreaterThanOrEqual(1400);
    }
    // At most one host's share was ever tried; the rest wait for the breaker, attempts untouched.
    await new Promise((r) => setTimeout(r, 300));
    const untried = await t.sql(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'PENDING' AND attempts = 0`,
      [stuck],
    );
    expect(untried[0].n).toBeGreaterThanOrEqual(30);
    expect(slow.received.length).toBeLessThanOrEqual(8);

    const health = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
    expect(health.status).toBe(200);
    expect(health.body.details.circuitBreakers[`webhook:127.0.0.1:${slow.port}`]).toBe('open');

    // Other tenants keep flowing while the breaker is open.
    const before = fast.received.length;
    await publish(
      t,
      Array.from({ length: 10 }, (_, i) => acquiringEvent(other, 100 + i)),
    );
    await waitFor('more of the other tenant', () => fast.received.length === before + 10, 5000);
  });
});

describe('three workers on one database', () => {
  const apps: TestApp[] = [];
  const rx = new Receiver();
  beforeAll(async () => {
    await rx.start();
    rx.answer = async () => {
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 5)));
      return { status: 200 };
    };
    const env = { ...FAST_ENV, WEBHOOK_BATCH_SIZE: '10', WEBHOOK_CONCURRENCY: '8' };
    apps.push(await startTestApp({ env: { ...env, WEBHOOK_WORKER_ENABLED: 'false' } }));
    for (let i = 0; i < 3; i++) apps.push(await startTestApp({ databaseUrl: apps[0].databaseUrl, env }));
  });
  afterAll(async () => {
    for (const a of apps.slice(1)) await a.close();
    await apps[0].close();
    await rx.stop();
  });

  it('each event is sent by exactly one of them', async () => {
    const t = apps[0];
    const tenants = [await createTenant(t, 'a'), await createTenant(t, 'b')];
    for (const tenant of tenants) await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    for (let round = 0; round < 6; round++) {
      await publish(
        t,
        Array.from({ length: 50 }, (_, i) => acquiringEvent(tenants[i % 2], round * 50 + i)),
      );
    }
    await waitFor(
      '300 deliveries recorded',
      async () => (await t.sql(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'DELIVERED'`))[0].n === 300,
      30000,
    );
    const ids = rx.ids();
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    const attempts = await t.sql(
      `SELECT delivery_id, count(*)::int AS n FROM webhook_delivery_attempts GROUP BY delivery_id HAVING count(*) > 1`,
    );
    expect(attempts).toEqual([]);
    // The work was shared: each worker's own metrics count what it delivered.
    const perWorker: number[] = [];
    for (const a of apps.slice(1)) {
      const m = await http(a.url, 'GET', '/metrics');
      perWorker.push(Number(/webhook_deliveries_total\{outcome="delivered"\} (\d+)/.exec(m.text)?.[1] ?? 0));
    }
    expect(perWorker.reduce((x, y) => x + y, 0)).toBe(300);
    expect(perWorker.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  });
});
