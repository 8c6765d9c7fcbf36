import { freshDatabase, http, startTestApp, TestApp } from '../support/test-app';
import { TcpProxy } from '../support/tcp-proxy';

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 20000): Promise<T> {
  const until = Date.now() + ms;
  let last: T;
  do {
    last = await fn();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 200));
  } while (Date.now() < until);
  return last;
}

describe('database outages', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await freshDatabase('outage');
    drop = db.drop;
    const real = new URL(db.url);
    proxy = new TcpProxy(real.hostname, Number(real.port || 5432));
    await proxy.up();
    const port = proxy.port;
    await proxy.down(); // the database is down when the service boots
    const viaProxy = new URL(db.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(port);
    t = await startTestApp({ databaseUrl: viaProxy.toString(), noWait: true, env: { DB_CONNECT_RETRY_MAX_MS: '500' } });
  });

  afterAll(async () => {
    await t.close();
    await proxy.down();
    await drop();
  });

  it('boots without its database, stays not-ready, then recovers; a running outage gives 503 and recovers', async () => {
    // Down at boot: the process lives, readiness says 503, API calls say database_unavailable.
    expect((await http(t.url, 'GET', '/health/live')).status).toBe(200);
    const notReady = await http(t.url, 'GET', '/health/ready');
    expect(notReady.status).toBe(503);
    expect(notReady.body.error.database.status).toBe('down');
    const early = await http(t.url, 'GET', '/admin/tenants', undefined, { 'X-Admin-Key': t.adminKey });
    expect(early.status).toBe(503);
    expect(early.body.error).toBe('database_unavailable');

    // The database comes up: the backoff loop connects, migrates and readiness turns 200.
    await proxy.up(proxy.port);
    const ready = await eventually(
      () => http(t.url, 'GET', '/health/ready'),
      (r) => r.status === 200,
    );
    expect(ready.status).toBe(200);
    expect(
      (await http(t.url, 'POST', '/admin/tenants', { name: 'A', allowedCidrs: ['127.0.0.1'] }, { 'X-Admin-Key': t.adminKey })).status,
    ).toBe(201);

    // Lost while running: requests get 503 database_unavailable, readiness 503.
    await proxy.down();
    const during = await eventually(
      () => http(t.url, 'GET', '/admin/tenants', undefined, { 'X-Admin-Key': t.adminKey }),
      (r) => r.status === 503,
      10000,
    );
    expect(during.body).toMatchObject({ statusCode: 503, error: 'database_unavailable' });
    expect((await http(t.url, 'GET', '/health/ready')).status).toBe(503);

    // And both recover when it returns.
    await proxy.up(proxy.port);
    const back = await eventually(
      () => http(t.url, 'GET', '/admin/tenants', undefined, { 'X-Admin-Key': t.adminKey }),
      (r) => r.status === 200,
    );
    expect(back.body.total).toBe(1);
    expect(
      (
        await eventually(
          () => http(t.url, 'GET', '/health/ready'),
          (r) => r.status === 200,
        )
      ).status,
    ).toBe(200);
  });
});
