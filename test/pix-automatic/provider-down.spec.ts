import { setTimeout as sleep } from 'node:timers/promises';
import { BillingEngine } from '../../src/pix-automatic/engine/billing-engine';
import { RefreshRecurrence } from '../../src/pix-automatic/use-cases/refresh-recurrence';
import { AppError } from '../../kernel/platform/errors/app-error';
import { http, TestApp } from '../support/test-app';
import { ProviderProxy } from '../support/provider-proxy';
import { advance, billingsOf, createRecurrence, newTenant, startPixApp, today } from './support';

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a failure');
}

describe('the provider is down (a switchable proxy in front of the sandbox bank)', () => {
  let t: TestApp;
  const proxy = new ProviderProxy();

  beforeAll(async () => {
    const origin = await proxy.start();
    t = await startPixApp({ env: { PROVIDER_URL: `${origin}/sandbox/bank` } });
    proxy.target = t.sandboxUrl;
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it('sending fails → SEND_FAILED with attempts counted and the breaker open; recovery → SENT', async () => {
    const ctx = await newTenant(t, 'Retry Ltda');
    proxy.mode = 'up';
    const r = await createRecurrence(t, ctx);
    await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${r.recurrenceId}/approve`);
    proxy.mode = 'down';
    await advance(t, 7); // the engine creates and tries to send cycle 0
    let [b] = await billingsOf(t, r.recurrenceId);
    expect(b).toMatchObject({ cycle: 0, status: 'SEND_FAILED', send_attempts: 1 });
    // Retries while the due date allows: another day, another attempt, still down.
    await advance(t, 1);
    [b] = await billingsOf(t, r.recurrenceId);
    expect(b).toMatchObject({ status: 'SEND_FAILED', send_attempts: 2 });
    const ready = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
    expect(ready.body.details.circuitBreakers['bank.sendBillings']).toBe('open');

    proxy.mode = 'up';
    await sleep(10_200); // opossum's reset timeout (10 s) before a half-open trial
    await t.app.get(BillingEngine).runDay(today(t), { wait: true });
    [b] = await billingsOf(t, r.recurrenceId);
    expect(b).toMatchObject({ status: 'SENT', send_attempts: 3 });
    const after = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
    expect(after.body.details.circuitBreakers['bank.sendBillings']).toBe('closed');
    await advance(t, 2); // the bank activates and, on the due date, settles it
    [b] = await billingsOf(t, r.recurrenceId);
    expect(b.status).toBe('COMPLETED');
  }, 30_000);

  it('refresh answers 500 provider_unavailable while the provider is down', async () => {
    const ctx = await newTenant(t, 'Refresh Ltda');
    const r = await createRecurrence(t, ctx);
    proxy.mode = 'down';
    const e = await failure(t.app.get(RefreshRecurrence).execute(ctx, r.recurrenceId));
    expect(e).toMatchObject({ status: 500, code: 'provider_unavailable' });
    proxy.mode = 'up';
  });

  // Last: it leaves the create breaker open.
  it('create answers 500 provider_unavailable, fast once the breaker is open, and leaves no recurrence', async () => {
    const ctx = await newTenant(t, 'Down Ltda');
    proxy.mode = 'down';
    for (let i = 0; i < 3; i++) {
      const e = await failure(createRecurrence(t, ctx));
      expect(e).toMatchObject({ status: 500, code: 'provider_unavailable' });
    }
    const started = Date.now();
    const fast = await failure(createRecurrence(t, ctx));
    expect(fast).toMatchObject({ status: 500, code: 'provider_unavailable' });
    expect(fast.message).not.toMatch(/sandbox|127\.0\.0\.1/);
    expect(Date.now() - started).toBeLessThan(100);
    expect((await t.sql('SELECT count(*)::int AS n FROM pix_recurrences WHERE tenant_id = $1', [ctx.tenantId]))[0].n).toBe(0);
    const ready = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
    expect(ready.body.details.circuitBreakers).toMatchObject({ status: 'up', degraded: true, 'bank.createRecurrence': 'open' });
    const metrics = await http(t.url, 'GET', '/metrics');
    expect(metrics.text).toMatch(/circuit_breaker_state\{breaker="bank.createRecurrence"\} 2/);
    proxy.mode = 'up';
  });
});
