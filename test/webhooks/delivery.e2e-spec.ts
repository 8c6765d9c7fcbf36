import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ClockSync } from '../../kernel/platform/clock/clock-sync.service';
import { verifyV2 } from '../../src/webhooks/domain/signing';
import { EventPublisher } from '../../src/webhooks/event-publisher';
import { http, startTestApp, TestApp } from '../support/test-app';
import { guideOpener, guideVerifier } from './guide-snippets';
import { acquiringEvent, createTenant, endpoints, FAST_ENV, pixEvent, publish, Receiver, waitFor } from './support';
import { transaction } from '../../kernel/platform/database/sql';

const HOUR = 3600 * 1000;

async function deliveries(t: TestApp, tenantId: string) {
  return t.sql(
    `SELECT d.*, e.data FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.tenant_id = $1 ORDER BY d.created_at, d.id`,
    [tenantId],
  );
}

async function allDelivered(t: TestApp, tenantId: string, n: number): Promise<boolean> {
  const rows = await t.sql(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'DELIVERED'`, [tenantId]);
  return rows[0].n >= n;
}

describe('webhook deliveries over real HTTP', () => {
  let t: TestApp;
  const receivers: Receiver[] = [];
  const receiver = async () => {
    const r = await new Receiver().start();
    receivers.push(r);
    return r;
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { ...FAST_ENV, WEBHOOK_BREAKER_VOLUME_THRESHOLD: '1000' } });
  });
  afterAll(async () => {
    await t.close();
    for (const r of receivers) await r.stop();
  });

  it('acquiring: the spec body and headers; the guide check accepts it and rejects a tampered body or a wrong secret', async () => {
    const rx = await receiver();
    const tenant = await createTenant(t);
    const { secret } = await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    await publish(t, [acquiringEvent(tenant, 1, 'acquiring.payout')]);
    await waitFor('the delivery', () => rx.received.length === 1);
    const [got] = rx.received;
    const [row] = await deliveries(t, tenant);
    const body = JSON.parse(got.body);
    expect(body).toEqual({
      id: row.event_id,
      type: 'acquiring.payout',
      createdAt: expect.any(String),
      data: { n: 1, amount: 1001, method: 'PIX', payer: 'João' },
    });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-service-webhook-id']).toBe(row.event_id);
    expect(got.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(got.headers['x-service-signature-previous']).toBeUndefined();
    expect(Math.abs(Number(got.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(60);

    const verify = guideVerifier();
    const raw = Buffer.from(got.body, 'utf8');
    expect(verify(raw, got.headers['x-service-signature'] as string, secret)).toBe(true);
    expect(verify(got.body.replace('1001', '9001'), got.headers['x-service-signature'] as string, secret)).toBe(false);
    expect(verify(raw, got.headers['x-service-signature'] as string, `${secret}x`)).toBe(false);
    expect(verifyV2(secret, raw, got.headers['x-service-signature-v2'] as string, { webhookId: row.event_id })).toEqual({ valid: true });

    await waitFor('recorded', () => allDelivered(t, tenant, 1));
    const [attempt] = await t.sql(`SELECT * FROM webhook_delivery_attempts WHERE delivery_id = $1`, [row.id]);
    expect(attempt).toMatchObject({
      attempt: 1,
      outcome: 'delivered',
      status_code: 200,
      error: null,
      response_snippet: '{"ok":true}',
      url: rx.url,
    });
    expect(attempt.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('pix-automatic: a sealed body the guide code opens with the registered key, and not with another key or an altered tag', async () => {
    const rx = await receiver();
    const tenant = await createTenant(t);
    const reg = await endpoints(t).registerPixAutomatic(tenant, { url: rx.url });
    expect(Buffer.from(reg.encryptionKey, 'base64')).toHaveLength(32);
    await publish(t, [pixEvent(tenant, 7, 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED')]);
    await waitFor('the delivery', () => rx.received.length === 1);
    const [got] = rx.received;
    const sealed = JSON.parse(got.body);
    expect(Object.keys(sealed).sort()).toEqual(['ciphertext', 'iv', 'keyId', 'tag']);
    expect(sealed.keyId).toBe(reg.keyId);
    expect(got.body).not.toContain('RR00000007');

    const openSealed = guideOpener();
    const event = openSealed(got.body, reg.encryptionKey);
    expect(event).toEqual({
      id: got.headers['x-service-webhook-id'],
      event_type: 'PIX_AUTOMATIC_RECEIVER_RECURRENCE_ACCEPTED',
      idTx: 'RR00000007',
      occurredAt: expect.any(String),
      data: { n: 7, amount: 990 },
    });
    expect(() => openSealed(got.body, randomBytes(32).toString('base64'))).toThrow();
    const tag = Buffer.from(sealed.tag, 'base64');
    tag[3] ^= 0x10;
    expect(() => openSealed({ ...sealed, tag: tag.toString('base64') }, reg.encryptionKey)).toThrow();
  });

  it("writes the event and its delivery in the caller's transaction: a rollback leaves nothing", async () => {
    const rx = await receiver();
    const tenant = await createTenant(t);
    await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    const ds = t.app.get(DataSource);
    const publisher = t.app.get(EventPublisher);
    await expect(
      transaction(ds, async (m) => {
        await publisher.publish(m, acquiringEvent(tenant, 1));
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    await expect(
      publish(t, [acquiringEvent(tenant, 2), { ...acquiringEvent(tenant, 3), type: 'acquiring.unknown' }]),
    ).rejects.toMatchObject({ code: 'invalid_outbound_event' });
    expect(await t.sql(`SELECT * FROM webhook_events WHERE tenant_id = $1`, [tenant])).toEqual([]);
    expect(await t.sql(`SELECT * FROM webhook_deliveries WHERE tenant_id = $1`, [tenant])).toEqual([]);
    await new Promise((r) => setTimeout(r, 100));
    expect(rx.received).toEqual([]);
  });

  it('records events without a registration as NO_ENDPOINT and skips event types the filter excludes', async () => {
    const rx = await receiver();
    const tenant = await createTenant(t);
    await publish(t, [acquiringEvent(tenant, 1)]);
    await endpoints(t).registerAcquiring(tenant, { url: rx.url, events: ['acquiring.payout'] });
    await publish(t, [acquiringEvent(tenant, 2, 'acquiring.financial_transaction'), acquiringEvent(tenant, 3, 'acquiring.payout')]);
    await waitFor('the payout', () => rx.received.length === 1);
    expect(JSON.parse(rx.received[0].body).data.n).toBe(3);
    expect((await t.sql(`SELECT count(*)::int AS n FROM webhook_events WHERE tenant_id = $1`, [tenant]))[0].n).toBe(3);
    const rows = await deliveries(t, tenant);
    expect(rows.map((r) => [r.data.n, r.status])).toEqual([
      [1, 'NO_ENDPOINT'],
      [3, expect.stringMatching(/PENDING|DELIVERED/)],
    ]);
    // once registered, the NO_ENDPOINT delivery can be replayed
    const svc = t.app.get((await import('../../src/webhooks/deliveries/deliveries.service')).WebhookDeliveriesService);
    const replay = await svc.replay(tenant, rows[0].id);
    expect(replay).toMatchObject({ status: 'PENDING', replayOf: rows[0].id, eventId: rows[0].event_id });
    await waitFor('the replay', () => rx.received.length === 2);
    expect(rx.received[1].headers['x-service-webhook-id']).toBe(rows[0].event_id);
    await waitFor('recorded', () => allDelivered(t, tenant, 2));
    await expect(svc.replay(tenant, replay.id)).resolves.toMatchObject({ replayOf: replay.id });
    await expect(svc.replay(tenant, '00000000-0000-0000-0000-000000000000')).rejects.toMatchObject({ code: 'delivery_not_found' });
  });

  it('publishMany: one write for a batch, each event with its own delivery; one bad event writes none of them', async () => {
    const rx = await receiver();
    const tenant = await createTenant(t);
    await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    const ds = t.app.get(DataSource);
    const publisher = t.app.get(EventPublisher);
    const batch = [acquiringEvent(tenant, 1), acquiringEvent(tenant, 2, 'acquiring.payout'), pixEvent(tenant, 3)];
    await transaction(ds, (m) => publisher.publishMany(m, batch));
    await waitFor('both acquiring events', () => rx.received.length === 2);
    expect(rx.received.map((r) => JSON.parse(r.body).data.n).sort()).toEqual([1, 2]);
    expect(new Set(rx.received.map((r) => r.headers['x-service-webhook-id'])).size).toBe(2);
    const rows = await deliveries(t, tenant);
    expect(rows.map((r) => [r.data.n, r.event_type, r.status === 'NO_ENDPOINT' ? 'NO_ENDPOINT' : 'SENT']).sort()).toEqual([
      [1, 'acquiring.financial_transaction', 'SENT'],
      [2, 'acquiring.payout', 'SENT'],
      // no pix-automatic registration for this tenant
      [3, 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED', 'NO_ENDPOINT'],
    ]);
    await expect(
      transaction(ds, (m) => publisher.publishMany(m, [acquiringEvent(tenant, 4), { ...pixEvent(tenant, 5), idTx: undefined }])),
    ).rejects.toMatchObject({ code: 'invalid_outbound_event' });
    expect((await t.sql(`SELECT count(*)::int AS n FROM webhook_events WHERE tenant_id = $1`, [tenant]))[0].n).toBe(3);
  });

  it('records a failed attempt (status, latency, error, 1 KiB of the answer), retries after 5 s of clock time, honours Retry-After', async () => {
    const rx = await receiver();
    const tenant = await createTenant(t);
    await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    let calls = 0;
    rx.answer = () =>
      ++calls === 1
        ? { status: 503, body: `{"error":"busy","pad":"${'é'.repeat(2000)}"}`, headers: { 'retry-after': '120' } }
        : { status: 200 };
    await publish(t, [acquiringEvent(tenant, 1)]);
    await waitFor('the first attempt recorded', async () => (await deliveries(t, tenant))[0].attempts === 1);
    const [row] = await deliveries(t, tenant);
    expect(row).toMatchObject({ status: 'PENDING', last_status_code: 503, last_error: 'http_503' });
    const wait = row.next_attempt_at.getTime() - row.last_attempt_at.getTime();
    expect(wait).toBeGreaterThanOrEqual(120000);
    expect(wait).toBeLessThan(121000);
    const [attempt] = await t.sql(`SELECT * FROM webhook_delivery_attempts WHERE delivery_id = $1`, [row.id]);
    expect(attempt).toMatchObject({ outcome: 'failed', status_code: 503, error: 'http_503' });
    expect(Buffer.byteLength(attempt.response_snippet)).toBeLessThanOrEqual(1024);
    expect(attempt.response_snippet.startsWith('{"error":"busy","pad":"éé')).toBe(true);

    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received).toHaveLength(1);
    await t.advanceClock(121000);
    await waitFor('the retry', () => allDelivered(t, tenant, 1));
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1].body).toBe(rx.received[0].body);
    expect((await deliveries(t, tenant))[0]).toMatchObject({ attempts: 2, last_status_code: 200, last_error: null });
  });

  it('sends a delivery in flight once when the test clock jumps a day meanwhile (leases are wall-clock time)', async () => {
    const rx = await receiver();
    const tenant = await createTenant(t);
    await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    rx.answer = async () => {
      await held;
      return { status: 200 };
    };
    await publish(t, [acquiringEvent(tenant, 1)]);
    await waitFor('the delivery in flight', () => rx.received.length === 1);
    // the lease (timeout 1 s + margin 0.5 s) is still running in real time; the test clock passes it by a day
    await t.advanceClock(24 * HOUR);
    await new Promise((r) => setTimeout(r, 300)); // ~15 claim polls
    release();
    await waitFor('delivered', () => allDelivered(t, tenant, 1));
    await new Promise((r) => setTimeout(r, 200));
    expect(rx.received).toHaveLength(1);
    expect((await deliveries(t, tenant))[0]).toMatchObject({ status: 'DELIVERED', attempts: 1 });
  });

  it('410 Gone disables the registration and cancels its pending deliveries; PUT enables it again', async () => {
    const rx = await receiver();
    const tenant = await createTenant(t);
    await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    rx.answer = () => ({ status: 410 });
    await publish(t, [acquiringEvent(tenant, 1)]);
    await waitFor('disabled', async () => (await endpoints(t).getAcquiring(tenant)).status === 'DISABLED');
    expect(await endpoints(t).getAcquiring(tenant)).toMatchObject({ status: 'DISABLED', disabledReason: 'endpoint_gone' });
    expect((await deliveries(t, tenant))[0]).toMatchObject({ status: 'CANCELLED', last_status_code: 410, last_error: 'endpoint_gone' });
    // while disabled, new events are kept as NO_ENDPOINT
    await publish(t, [acquiringEvent(tenant, 2)]);
    expect((await deliveries(t, tenant))[1].status).toBe('NO_ENDPOINT');
    rx.answer = () => ({ status: 200 });
    const again = await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    expect(again).toMatchObject({ status: 'ACTIVE', disabledReason: null });
    await publish(t, [acquiringEvent(tenant, 3)]);
    await waitFor('delivered after re-enabling', () => allDelivered(t, tenant, 1));
  });

  it('exports delivery outcomes and the lag in /metrics and /health/ready', async () => {
    const ready = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
    expect(ready.status).toBe(200);
    expect(ready.body.details.webhookOutbox).toMatchObject({ status: 'up', lagMs: expect.any(Number), worker: 'running' });
    const m = await http(t.url, 'GET', '/metrics');
    expect(m.text).toMatch(/webhook_deliveries_total\{outcome="delivered"\} [1-9]/);
    expect(m.text).toMatch(/webhook_deliveries_total\{outcome="failed"\} [1-9]/);
    expect(m.text).toMatch(/webhook_deliveries_total\{outcome="gone"\} 1/);
    expect(m.text).toMatch(/webhook_outbox_lag_seconds \d/);
    expect(m.text).toContain('webhook_delivery_duration_seconds_bucket');
  });
});

describe('secret and key rotation', () => {
  let t: TestApp;
  const rx = new Receiver();
  beforeAll(async () => {
    await rx.start();
    t = await startTestApp({ env: FAST_ENV });
  });
  afterAll(async () => {
    await t.close();
    await rx.stop();
  });

  it("acquiring: for 24 h deliveries also carry the previous secret's signature; then only the new one", async () => {
    const tenant = await createTenant(t);
    const first = await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    const second = await endpoints(t).registerAcquiring(tenant, { url: rx.url });
    expect(second.secret).not.toBe(first.secret);
    const view = await endpoints(t).getAcquiring(tenant);
    expect(view).not.toHaveProperty('secret');
    expect(new Date(view.previousSecretExpiresAt!).getTime() - Date.now()).toBeGreaterThan(23.9 * HOUR);
    const stored = await t.sql(`SELECT secret_box, previous_secret_box FROM webhook_endpoints WHERE tenant_id = $1`, [tenant]);
    expect(JSON.stringify(stored)).not.toContain(first.secret);
    expect(JSON.stringify(stored)).not.toContain(second.secret);

    const verify = guideVerifier();
    await publish(t, [acquiringEvent(tenant, 1)]);
    await waitFor('delivery during the grace period', () => rx.received.length === 1);
    const during = rx.received[0];
    expect(verify(during.body, during.headers['x-service-signature'] as string, second.secret)).toBe(true);
    expect(verify(during.body, during.headers['x-service-signature'] as string, first.secret)).toBe(false);
    expect(verify(during.body, during.headers['x-service-signature-previous'] as string, first.secret)).toBe(true);
    const id = during.headers['x-service-webhook-id'] as string;
    expect(verifyV2(first.secret, during.body, during.headers['x-service-signature-v2'] as string, { webhookId: id })).toEqual({
      valid: true,
    });

    await t.advanceClock(24 * HOUR + 1000);
    expect((await endpoints(t).getAcquiring(tenant)).previousSecretExpiresAt).toBeNull();
    await publish(t, [acquiringEvent(tenant, 2)]);
    await waitFor('delivery after the grace period', () => rx.received.length === 2);
    const after = rx.received[1];
    expect(after.headers['x-service-signature-previous']).toBeUndefined();
    expect(verify(after.body, after.headers['x-service-signature'] as string, second.secret)).toBe(true);
    expect(
      verifyV2(first.secret, after.body, after.headers['x-service-signature-v2'] as string, {
        webhookId: after.headers['x-service-webhook-id'] as string,
      }).valid,
    ).toBe(false);
  });

  it('pix-automatic: sealed with the previous key (keyId says so) during the grace period, then with the new key; DELETE + PUT cuts over at once', async () => {
    const tenant = await createTenant(t);
    const openSealed = guideOpener();
    const first = await endpoints(t).registerPixAutomatic(tenant, { url: rx.url });
    const second = await endpoints(t).registerPixAutomatic(tenant, { url: rx.url });
    expect(second.keyId).not.toBe(first.keyId);
    expect(second).toMatchObject({ previousKeyId: first.keyId, sealingKeyId: first.keyId });
    const n = rx.received.length;
    await publish(t, [pixEvent(tenant, 1)]);
    await waitFor('delivery during the grace period', () => rx.received.length === n + 1);
    const during = JSON.parse(rx.received[n].body);
    expect(during.keyId).toBe(first.keyId);
    expect(openSealed(during, first.encryptionKey).idTx).toBe('RR00000001');
    expect(() => openSealed(during, second.encryptionKey)).toThrow();

    await t.advanceClock(24 * HOUR + 1000);
    expect(await endpoints(t).getPixAutomatic(tenant)).toMatchObject({ previousKeyId: null, sealingKeyId: second.keyId });
    await publish(t, [pixEvent(tenant, 2)]);
    await waitFor('delivery after the grace period', () => rx.received.length === n + 2);
    const after = JSON.parse(rx.received[n + 1].body);
    expect(after.keyId).toBe(second.keyId);
    expect(openSealed(after, second.encryptionKey).idTx).toBe('RR00000002');

    await endpoints(t).remove(tenant, 'pix-automatic');
    await expect(endpoints(t).getPixAutomatic(tenant)).rejects.toMatchObject({ code: 'webhook_not_found' });
    const fresh = await endpoints(t).registerPixAutomatic(tenant, { url: rx.url });
    expect(fresh).toMatchObject({ previousKeyId: null, sealingKeyId: fresh.keyId });
  });

  it('a delivery fails 8 times, then it is DEAD; a replay sends it again', async () => {
    const dead = await new Receiver().start();
    try {
      dead.answer = () => ({ status: 500, body: 'nope' });
      const tenant = await createTenant(t);
      await endpoints(t).registerAcquiring(tenant, { url: dead.url });
      await publish(t, [acquiringEvent(tenant, 1)]);
      const clock = t.app.get(ClockSync);
      for (let attempt = 1; attempt <= 8; attempt++) {
        await waitFor(`attempt ${attempt}`, async () => (await deliveries(t, tenant))[0].attempts === attempt, 10000);
        await clock.advance(25 * HOUR);
      }
      const [row] = await deliveries(t, tenant);
      expect(row).toMatchObject({ status: 'DEAD', attempts: 8, next_attempt_at: null, last_error: 'http_500' });
      const attempts = await t.sql(`SELECT attempt FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [row.id]);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(dead.received).toHaveLength(8);

      dead.answer = () => ({ status: 204 });
      const svc = t.app.get((await import('../../src/webhooks/deliveries/deliveries.service')).WebhookDeliveriesService);
      const replay = await svc.replay(tenant, row.id);
      await waitFor('the replay delivered', () => allDelivered(t, tenant, 1));
      expect(dead.received[8].headers['x-service-webhook-id']).toBe(row.event_id);
      expect((await svc.get(tenant, replay.id)).attemptLog).toMatchObject([{ attempt: 1, outcome: 'delivered', statusCode: 204 }]);
    } finally {
      await dead.stop();
    }
  });
});

describe('private targets', () => {
  let api: TestApp;
  let worker: TestApp;
  const rx = new Receiver();
  beforeAll(async () => {
    await rx.start();
    // Registered by a replica that allows private addresses; delivered by one that does not.
    api = await startTestApp({ env: { ...FAST_ENV, WEBHOOK_WORKER_ENABLED: 'false' } });
    worker = await startTestApp({
      databaseUrl: api.databaseUrl,
      env: { ...FAST_ENV, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false', WEBHOOK_BREAKER_VOLUME_THRESHOLD: '1000' },
    });
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
    await rx.stop();
  });

  it('are refused at send time, for a literal address and for a name that resolves to loopback', async () => {
    const literal = await createTenant(api, 'literal');
    const named = await createTenant(api, 'named');
    await endpoints(api).registerAcquiring(literal, { url: rx.url });
    await endpoints(api).registerAcquiring(named, { url: `http://localhost:${rx.port}/hooks` });
    await publish(api, [acquiringEvent(literal, 1), acquiringEvent(named, 2)]);
    await waitFor(
      'both refused',
      async () => (await api.sql(`SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE outcome = 'refused'`))[0].n === 2,
    );
    const attempts = await api.sql(`SELECT url, error, status_code FROM webhook_delivery_attempts ORDER BY url`);
    expect(attempts).toEqual([
      { url: rx.url, error: 'target_not_allowed: the destination resolves to a loopback address', status_code: null },
      {
        url: `http://localhost:${rx.port}/hooks`,
        error: 'target_not_allowed: the destination resolves to a loopback address',
        status_code: null,
      },
    ]);
    expect(rx.received).toEqual([]);
    const rows = await api.sql(`SELECT status, attempts FROM webhook_deliveries`);
    expect(rows).toEqual([
      { status: 'PENDING', attempts: 1 },
      { status: 'PENDING', attempts: 1 },
    ]);
  });
});
