import { DataSource } from 'typeorm';
import { closeSqlPool } from '../../kernel/platform/database/sql';
import { http, startTestApp, TestApp } from '../support/test-app';
import { acquiringEvent, createTenant, endpoints, FAST_ENV, publish, Receiver, waitFor } from '../webhooks/support';

/**
 * /health/ready is unauthenticated (probes call it): it says up or down per class of dependency
 * and nothing of any tenant; the operator key shows every check's details.
 */
describe('GET /health/ready: a summary for anyone, the details for the operator', () => {
  let t: TestApp;
  let rx: Receiver;
  let tenantId: string;
  const ready = (headers: Record<string, string> = {}) => http(t.url, 'GET', '/health/ready', undefined, headers);

  beforeAll(async () => {
    [t, rx] = await Promise.all([startTestApp({ env: FAST_ENV }), new Receiver().start()]);
    // a tenant with a webhook endpoint that has had a delivery: its host has a breaker
    tenantId = await createTenant(t, 'Hooked Tenant Ltda');
    await endpoints(t).registerAcquiring(tenantId, { url: rx.url });
    await publish(t, [acquiringEvent(tenantId, 1)]);
    await waitFor('the delivery', () => rx.received.length === 1);
  });
  afterAll(async () => {
    await t.close();
    await rx.stop();
  });

  it("with the operator key: every check's details, the tenant's webhook host among them", async () => {
    const r = await ready({ 'X-Admin-Key': t.adminKey });
    expect(r.status).toBe(200);
    expect(r.body.details.circuitBreakers[`webhook:127.0.0.1:${rx.port}`]).toBe('closed');
    expect(r.body.details.database).toEqual({ status: 'up', migrations: 'applied' });
    expect(r.body.details.webhookOutbox).toMatchObject({ status: 'up', lagMs: expect.any(Number) });
  });

  it('without it, or with a wrong one: one status per class of dependency, no host, tenant or check detail', async () => {
    const attempts: Record<string, string>[] = [{}, { 'X-Admin-Key': 'not-the-operator-key-0123456789' }, { 'X-Admin-Key': '' }];
    for (const headers of attempts) {
      const r = await ready(headers);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('ok');
      expect(r.body.error).toEqual({});
      expect(Object.keys(r.body.details)).toEqual(expect.arrayContaining(['database', 'process', 'webhooks']));
      for (const [name, v] of Object.entries(r.body.details)) {
        expect(['database', 'redis', 'bank', 'acquirer', 'webhooks', 'email', 'process', 'service']).toContain(name);
        expect([{ status: 'up' }, { status: 'up', degraded: true }]).toContainEqual(v);
      }
      expect(r.body.info).toEqual(r.body.details);
      for (const secret of [String(rx.port), '127.0.0.1', 'webhook:', tenantId, 'Hooked', 'circuitBreakers', 'lagMs', 'migrations'])
        expect(r.text).not.toContain(secret);
    }
  });

  it('says which class is down, with 503 as before, the details only with the key', async () => {
    await closeSqlPool(t.app.get(DataSource));
    const anyone = await ready();
    expect(anyone.status).toBe(503);
    expect(anyone.body).toMatchObject({ status: 'error', error: { database: { status: 'down' } } });
    expect(anyone.text).not.toContain(String(rx.port));
    const operator = await ready({ 'X-Admin-Key': t.adminKey });
    expect(operator.status).toBe(503);
    expect(operator.body.error.database).toMatchObject({ status: 'down', error: expect.any(String) });
  });
});
