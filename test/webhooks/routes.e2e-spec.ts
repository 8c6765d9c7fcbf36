import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';
import { guideOpener, guideVerifier } from './guide-snippets';
import { acquiringEvent, FAST_ENV, pixEvent, publish, Receiver, waitFor } from './support';

const BASE = '/v1/banking/webhooks';

describe('webhook routes over HTTP', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  let b: OnboardedTenant;
  const rx = new Receiver();
  const call = (who: OnboardedTenant, method: string, path: string, body?: unknown) =>
    http(t.url, method, `${BASE}${path}`, body, who.auth);

  beforeAll(async () => {
    await rx.start();
    t = await startTestApp({ env: FAST_ENV });
    a = await onboardTenant(t, { name: 'A', rateLimitPerMinute: 1000 });
    b = await onboardTenant(t, { name: 'B', rateLimitPerMinute: 1000 });
  });
  afterAll(async () => {
    await t.close();
    await rx.stop();
  });

  it('needs a bearer token', async () => {
    expect((await http(t.url, 'GET', `${BASE}/acquiring`)).status).toBe(401);
    expect((await http(t.url, 'PUT', `${BASE}/acquiring`, { url: rx.url })).status).toBe(401);
    expect((await http(t.url, 'GET', `${BASE}/deliveries`)).status).toBe(401);
  });

  it('acquiring: PUT shows the secret once, GET never, DELETE forgets it; another tenant sees nothing', async () => {
    expect((await call(a, 'GET', '/acquiring')).body).toMatchObject({ statusCode: 404, error: 'webhook_not_found' });
    const put = await call(a, 'PUT', '/acquiring', { url: rx.url, events: ['acquiring.payout', 'acquiring.financial_transaction'] });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      url: rx.url,
      events: ['acquiring.financial_transaction', 'acquiring.payout'],
      status: 'ACTIVE',
      disabledReason: null,
      previousSecretExpiresAt: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const get = await call(a, 'GET', '/acquiring');
    expect(get.status).toBe(200);
    expect(get.body).not.toHaveProperty('secret');
    expect(get.text).not.toContain(put.body.secret);
    expect((await call(b, 'GET', '/acquiring')).status).toBe(404);
    expect((await call(b, 'DELETE', '/acquiring')).status).toBe(404);

    const rotated = await call(a, 'PUT', '/acquiring', { url: rx.url });
    expect(rotated.body).toMatchObject({ events: null, previousSecretExpiresAt: expect.any(String) });
    expect(rotated.body.secret).not.toBe(put.body.secret);

    const del = await call(a, 'DELETE', '/acquiring');
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await call(a, 'GET', '/acquiring')).status).toBe(404);
    expect((await call(a, 'DELETE', '/acquiring')).status).toBe(404);
    expect(t.logs()).not.toContain(put.body.secret);
    expect(t.logs()).not.toContain(rotated.body.secret);
  });

  it('pix-automatic: PUT answers a 32-byte base64 key once; GET shows only its id', async () => {
    const put = await call(a, 'PUT', '/pix-automatic', { url: rx.url });
    expect(put.status).toBe(200);
    expect(Buffer.from(put.body.encryptionKey, 'base64')).toHaveLength(32);
    expect(put.body).toMatchObject({
      url: rx.url,
      status: 'ACTIVE',
      keyId: expect.stringMatching(/^key_/),
      sealingKeyId: put.body.keyId,
      previousKeyId: null,
    });
    const get = await call(a, 'GET', '/pix-automatic');
    expect(get.body).toEqual({ ...put.body, encryptionKey: undefined, updatedAt: get.body.updatedAt });
    expect(get.text).not.toContain(put.body.encryptionKey);
    expect(t.logs()).not.toContain(put.body.encryptionKey);
    expect((await call(b, 'GET', '/pix-automatic')).status).toBe(404);
    expect((await call(a, 'DELETE', '/pix-automatic')).status).toBe(204);
  });

  it('refuses bad registrations with a clear 400 and writes nothing', async () => {
    const cases: [string, unknown, string][] = [
      ['/acquiring', { url: 'ftp://merchant.example.com/h' }, 'invalid_webhook_url'],
      ['/acquiring', { url: 'https://user:pw@merchant.example.com/h' }, 'invalid_webhook_url'],
      ['/acquiring', { url: rx.url, events: ['acquiring.unknown_event'] }, 'validation_error'],
      ['/acquiring', { url: rx.url, events: [] }, 'validation_error'],
      ['/acquiring', { url: rx.url, extra: true }, 'validation_error'],
      ['/acquiring', {}, 'validation_error'],
      ['/pix-automatic', { url: 'not a url' }, 'invalid_webhook_url'],
      ['/pix-automatic', { url: rx.url, events: ['acquiring.payout'] }, 'validation_error'],
    ];
    for (const [path, body, code] of cases) {
      const r = await call(b, 'PUT', path, body);
      expect([path, body, r.status, r.body.error]).toEqual([path, body, 400, code]);
      expect(r.body.details?.length).toBeGreaterThan(0);
    }
    expect(await t.sql(`SELECT * FROM webhook_endpoints WHERE tenant_id = $1`, [b.tenantId])).toEqual([]);
  });

  it('a registration made over HTTP receives signed and sealed deliveries the guide code checks', async () => {
    const acq = await call(a, 'PUT', '/acquiring', { url: rx.url });
    const pix = await call(a, 'PUT', '/pix-automatic', { url: rx.url });
    const n = rx.received.length;
    await publish(t, [acquiringEvent(a.tenantId, 1, 'acquiring.payment_slip_notification'), pixEvent(a.tenantId, 2)]);
    await waitFor('both deliveries', () => rx.received.length === n + 2);
    const [signed, sealed] = rx.received.slice(n).sort((x) => (x.body.includes('ciphertext') ? 1 : -1));
    expect(guideVerifier()(signed.body, signed.headers['x-service-signature'] as string, acq.body.secret)).toBe(true);
    expect(JSON.parse(signed.body).type).toBe('acquiring.payment_slip_notification');
    expect(guideOpener()(sealed.body, pix.body.encryptionKey)).toMatchObject({
      event_type: 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED',
      idTx: 'RR00000002',
    });
  });

  it("the delivery log: filtered, paginated, newest first, only the caller's own", async () => {
    await call(a, 'PUT', '/acquiring', { url: rx.url });
    await publish(t, [
      acquiringEvent(a.tenantId, 10, 'acquiring.payout'),
      acquiringEvent(a.tenantId, 11, 'acquiring.payout'),
      acquiringEvent(b.tenantId, 12, 'acquiring.payout'),
    ]);
    await waitFor(
      'delivered',
      async () => (await call(a, 'GET', '/deliveries?eventType=acquiring.payout&status=DELIVERED')).body.total === 2,
    );

    const page1 = await call(a, 'GET', '/deliveries?eventType=acquiring.payout&status=DELIVERED&limit=1&offset=0');
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(page1.body.items).toHaveLength(1);
    expect(page1.body.items[0]).toEqual({
      id: expect.any(String),
      eventId: expect.stringMatching(/^evt_[0-9a-f]{24}$/),
      domain: 'acquiring',
      eventType: 'acquiring.payout',
      status: 'DELIVERED',
      attempts: 1,
      nextAttemptAt: null,
      lastAttemptAt: expect.any(String),
      lastStatusCode: 200,
      lastError: null,
      deliveredAt: expect.any(String),
      replayOf: null,
      createdAt: expect.any(String),
    });
    const page2 = await call(a, 'GET', '/deliveries?eventType=acquiring.payout&status=DELIVERED&limit=1&offset=1');
    expect(page2.body.items[0].id).not.toBe(page1.body.items[0].id);
    expect(page1.body.items[0].createdAt >= page2.body.items[0].createdAt).toBe(true);

    const bLog = await call(b, 'GET', '/deliveries');
    expect(bLog.body.items.map((d: any) => d.status)).toEqual(['NO_ENDPOINT']);
    expect((await call(a, 'GET', '/deliveries?status=NO_ENDPOINT')).body.total).toBe(0);

    const detail = await call(a, 'GET', `/deliveries/${page1.body.items[0].id}`);
    expect(detail.body.attemptLog).toEqual([
      {
        attempt: 1,
        url: rx.url,
        outcome: 'delivered',
        statusCode: 200,
        latencyMs: expect.any(Number),
        error: null,
        responseSnippet: '{"ok":true}',
        at: expect.any(String),
      },
    ]);
    expect((await call(b, 'GET', `/deliveries/${page1.body.items[0].id}`)).body.error).toBe('delivery_not_found');
    expect((await call(a, 'GET', '/deliveries/not-a-uuid')).status).toBe(404);

    for (const q of ['status=LOST', 'limit=0', 'limit=101', 'eventType=a%20b', 'offset=-1', 'other=1']) {
      const r = await call(a, 'GET', `/deliveries?${q}`);
      expect([q, r.status, r.body.error]).toEqual([q, 400, 'validation_error']);
    }
  });

  it("replay: 202 with a new delivery; 404 for another tenant's; 409 while pending or without an active endpoint", async () => {
    const [original] = (await call(a, 'GET', '/deliveries?status=DELIVERED&limit=1')).body.items;
    const n = rx.received.length;
    expect((await call(b, 'POST', `/deliveries/${original.id}/replay`)).status).toBe(404);
    rx.answer = () => 'hang';
    const replay = await call(a, 'POST', `/deliveries/${original.id}/replay`);
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ status: 'PENDING', replayOf: original.id, eventId: original.eventId, attempts: 0 });
    const again = await call(a, 'POST', `/deliveries/${replay.body.id}/replay`);
    expect(again.body).toMatchObject({ statusCode: 409, error: 'delivery_pending' });
    await waitFor('the replay sent', () => rx.received.length === n + 1);
    expect(rx.received[n].headers['x-service-webhook-id']).toBe(original.eventId);
    rx.answer = () => ({ status: 200, body: '{"ok":true}' });

    const [noEndpoint] = (await call(b, 'GET', '/deliveries?status=NO_ENDPOINT')).body.items;
    expect((await call(b, 'POST', `/deliveries/${noEndpoint.id}/replay`)).body).toMatchObject({
      statusCode: 409,
      error: 'no_active_endpoint',
    });
    expect((await call(b, 'PUT', '/acquiring', { url: rx.url })).status).toBe(200);
    const late = await call(b, 'POST', `/deliveries/${noEndpoint.id}/replay`);
    expect(late.status).toBe(202);
    await waitFor('the late delivery', () => rx.ids().includes(noEndpoint.eventId));
  });
});

describe('registration where private targets are not allowed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...FAST_ENV, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_WORKER_ENABLED: 'false' } });
  });
  afterAll(() => t.close());

  it('refuses localhost and private literal addresses', async () => {
    const a = await onboardTenant(t);
    for (const url of ['http://localhost:4000/h', 'http://127.0.0.1/h', 'https://10.0.0.8/h', 'https://169.254.169.254/latest/meta-data']) {
      const r = await http(t.url, 'PUT', `${BASE}/acquiring`, { url }, a.auth);
      expect([url, r.status, r.body.error]).toEqual([url, 400, 'invalid_webhook_url']);
    }
    expect((await http(t.url, 'PUT', `${BASE}/acquiring`, { url: 'https://merchant.example.com/h' }, a.auth)).status).toBe(200);
  });
});
