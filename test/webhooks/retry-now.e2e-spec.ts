import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';
import { acquiringEvent, FAST_ENV, publish, Receiver, waitFor } from './support';

const BASE = '/v1/banking/webhooks';
const OUTAGE = { status: 503, body: '{"error":"down"}', headers: { 'retry-after': '3600' } };

/**
 * After a receiver outage the last deliveries wait out their backoff (here an hour, by
 * Retry-After); the operator hurries them instead of waiting, per delivery and per registration.
 */
describe('hurrying waiting deliveries (retry-now, retry-pending)', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  let b: OnboardedTenant;
  const rx = new Receiver();
  const call = (who: OnboardedTenant, method: string, path: string) => http(t.url, method, `${BASE}${path}`, undefined, who.auth);
  const delivery = async (id: string) => (await call(a, 'GET', `/deliveries/${id}`)).body;
  const waitingAfterOutage = async (n: number): Promise<any[]> => {
    rx.answer = () => OUTAGE;
    const before = rx.received.length;
    await publish(
      t,
      Array.from({ length: n }, (_, i) => acquiringEvent(a.tenantId, 100 + i)),
    );
    await waitFor('the first attempts to fail', () => rx.received.length === before + n);
    const ids = rx.ids().slice(before);
    let waiting: any[] = [];
    await waitFor('the failures recorded', async () => {
      const log = (await call(a, 'GET', '/deliveries?status=PENDING&limit=100')).body.items;
      waiting = log.filter((d: any) => ids.includes(d.eventId) && d.attempts === 1);
      return waiting.length === n;
    });
    return waiting;
  };

  beforeAll(async () => {
    await rx.start();
    t = await startTestApp({ env: FAST_ENV });
    a = await onboardTenant(t, { name: 'A', rateLimitPerMinute: 1000 });
    b = await onboardTenant(t, { name: 'B', rateLimitPerMinute: 1000 });
    expect((await http(t.url, 'PUT', `${BASE}/acquiring`, { url: rx.url }, a.auth)).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await rx.stop();
  });

  it('retry-now sends a delivery waiting for its retry at once, as its next attempt; 409 once it has finished', async () => {
    const [waiting] = await waitingAfterOutage(1);
    expect(Date.parse(waiting.nextAttemptAt) - Date.now()).toBeGreaterThan(50 * 60 * 1000);
    rx.answer = () => ({ status: 200, body: '{"ok":true}' });
    const sentBefore = rx.received.length;

    expect((await call(b, 'POST', `/deliveries/${waiting.id}/retry-now`)).body).toMatchObject({
      statusCode: 404,
      error: 'delivery_not_found',
    });
    const r = await call(a, 'POST', `/deliveries/${waiting.id}/retry-now`);
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ id: waiting.id, status: 'PENDING', attempts: 1, replayOf: null });
    expect(Date.parse(r.body.nextAttemptAt)).toBeLessThanOrEqual(Date.now() + 1000);

    await waitFor('the hurried delivery delivered', async () => (await delivery(waiting.id)).status === 'DELIVERED', 5000);
    const done = await delivery(waiting.id);
    expect(done.attempts).toBe(2);
    expect(done.attemptLog.map((x: any) => x.outcome)).toEqual(['failed', 'delivered']);
    expect(rx.ids().slice(sentBefore)).toEqual([waiting.eventId]);

    const finished = await call(a, 'POST', `/deliveries/${waiting.id}/retry-now`);
    expect(finished.status).toBe(409);
    expect(finished.body).toMatchObject({ error: 'delivery_not_pending', message: expect.stringMatching(/replay/) });
    expect((await call(a, 'POST', `/deliveries/not-a-uuid/retry-now`)).body.error).toBe('delivery_not_found');
  });

  it('retry-pending sends every waiting delivery of the registration now, each once, even when hurried many times at once', async () => {
    const waiting = await waitingAfterOutage(3);
    rx.answer = () => ({ status: 200, body: '{"ok":true}' });
    const sentBefore = rx.received.length;

    // Hurry them from several requests at the same moment: each is still sent exactly once.
    const calls = await Promise.all([
      call(a, 'POST', '/acquiring/retry-pending'),
      ...waiting.map((d) => call(a, 'POST', `/deliveries/${d.id}/retry-now`)),
      call(a, 'POST', '/acquiring/retry-pending'),
      ...waiting.map((d) => call(a, 'POST', `/deliveries/${d.id}/retry-now`)),
    ]);
    expect(calls[0].status).toBe(202);
    expect(calls[0].body).toMatchObject({ domain: 'acquiring', dueAt: expect.any(String) });
    for (const c of calls.slice(1)) expect([202, 409]).toContain(c.status);

    await waitFor(
      'every hurried delivery delivered',
      async () => (await Promise.all(waiting.map((d) => delivery(d.id)))).every((d) => d.status === 'DELIVERED'),
      5000,
    );
    await new Promise((r) => setTimeout(r, 300)); // a second send, were there one, would land now
    expect(rx.ids().slice(sentBefore).sort()).toEqual(waiting.map((d) => d.eventId).sort());
    for (const d of waiting) expect((await delivery(d.id)).attempts).toBe(2);

    // Nothing left waiting: 202 with nothing scheduled. No registration: 404.
    expect((await call(a, 'POST', '/acquiring/retry-pending')).body).toMatchObject({ domain: 'acquiring', scheduled: 0, deliveryIds: [] });
    expect((await call(a, 'POST', '/pix-automatic/retry-pending')).body).toMatchObject({ statusCode: 404, error: 'webhook_not_found' });
    expect((await call(b, 'POST', '/acquiring/retry-pending')).status).toBe(404);
  });

  it('retry-pending reports what it scheduled', async () => {
    const waiting = await waitingAfterOutage(2);
    rx.answer = () => 'hang'; // keep them pending after the hurried attempt starts
    const r = await call(a, 'POST', '/acquiring/retry-pending');
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ domain: 'acquiring', scheduled: 2, deliveryIds: waiting.map((d) => d.id).sort(), dueAt: expect.any(String) });
    // A delivery being sent at this moment is not hurried again.
    await waitFor(
      'both sent',
      () => rx.received.filter((x) => waiting.some((d) => d.eventId === x.headers['x-service-webhook-id'])).length >= 4,
    );
    const inFlight = await call(a, 'POST', `/deliveries/${waiting[0].id}/retry-now`);
    expect(inFlight.body).toMatchObject({ statusCode: 409, error: 'delivery_in_flight' });
  });
});
