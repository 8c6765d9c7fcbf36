import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { PeriodicJobs } from '../../kernel/platform/jobs/periodic-jobs';
import { WebhookRetention } from '../../src/webhooks/retention/webhook-retention';
import { WebhooksConfig } from '../../src/webhooks/webhooks.config';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';
import { acquiringEvent, FAST_ENV, publish, Receiver, waitFor } from './support';

const BASE = '/v1/banking/webhooks';

describe('webhook retention (WEBHOOK_RETENTION_DAYS)', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  const rx = new Receiver();
  const call = (method: string, path: string) => http(t.url, method, `${BASE}${path}`, undefined, a.auth);
  const retention = () => t.app.get(WebhookRetention);

  /**
   * `n` events published for real (one delivery each), then aged by `ageDays`; with `settle`,
   * returns once their deliveries have finished.
   */
  async function oldEvents(n: number, ageDays: number, settle = true): Promise<{ eventId: string; deliveryId: string }[]> {
    const before = await t.sql(`SELECT id FROM webhook_events WHERE tenant_id = $1`, [a.tenantId]);
    const seen = new Set(before.map((r: { id: string }) => r.id));
    await publish(
      t,
      Array.from({ length: n }, (_, i) => acquiringEvent(a.tenantId, i, 'acquiring.payout')),
    );
    const rows = await t.sql(
      `SELECT e.id AS event_id, d.id AS delivery_id FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id WHERE e.tenant_id = $1 ORDER BY e.created_at, e.id`,
      [a.tenantId],
    );
    const mine = rows
      .filter((r: { event_id: string }) => !seen.has(r.event_id))
      .map((r: { event_id: string; delivery_id: string }) => ({ eventId: r.event_id, deliveryId: r.delivery_id }));
    await t.sql(`UPDATE webhook_events SET created_at = created_at - make_interval(days => $2) WHERE id = ANY($1)`, [
      mine.map((x) => x.eventId),
      ageDays,
    ]);
    if (settle)
      await waitFor(
        'the deliveries',
        async () =>
          (await t.sql(`SELECT 1 FROM webhook_deliveries WHERE id = ANY($1) AND status = 'PENDING'`, [mine.map((x) => x.deliveryId)]))
            .length === 0,
      );
    return mine;
  }

  const exists = async (eventId: string) => (await t.sql(`SELECT 1 FROM webhook_events WHERE id = $1`, [eventId])).length === 1;

  beforeAll(async () => {
    await rx.start();
    t = await startTestApp({ env: { ...FAST_ENV, WEBHOOK_RETENTION_DAYS: '30' } });
    a = await onboardTenant(t, { name: 'Retention', rateLimitPerMinute: 1000 });
    const put = await http(t.url, 'PUT', `${BASE}/acquiring`, { url: rx.url }, a.auth);
    expect(put.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await rx.stop();
  });

  it('deletes finished events past retention with their deliveries and attempts, and keeps the rest', async () => {
    const [delivered, dead, withPendingReplay, recent] = await oldEvents(4, 0);
    await waitFor(
      'four deliveries',
      async () =>
        (await t.sql(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'DELIVERED'`, [a.tenantId]))[0]
          .n === 4,
    );
    // Age them: three past retention, one inside it.
    await t.sql(`UPDATE webhook_events SET created_at = now() - interval '40 days' WHERE id = ANY($1)`, [
      [delivered.eventId, dead.eventId, withPendingReplay.eventId],
    ]);
    await t.sql(`UPDATE webhook_events SET created_at = now() - interval '29 days' WHERE id = $1`, [recent.eventId]);
    await t.sql(`UPDATE webhook_deliveries SET status = 'DEAD', delivered_at = NULL WHERE id = $1`, [dead.deliveryId]);
    // A replay that has not been delivered yet keeps its (old) event.
    rx.answer = () => 'hang';
    const replay = await call('POST', `/deliveries/${withPendingReplay.deliveryId}/replay`);
    expect(replay.status).toBe(202);
    expect(replay.body.status).toBe('PENDING');
    const [{ n: attemptsBefore }] = await t.sql(`SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE delivery_id = $1`, [
      delivered.deliveryId,
    ]);
    expect(attemptsBefore).toBe(1);

    expect(await retention().purge(new Date())).toBe(2);

    expect(await exists(delivered.eventId)).toBe(false);
    expect(await exists(dead.eventId)).toBe(false);
    expect(await exists(withPendingReplay.eventId)).toBe(true);
    expect(await exists(recent.eventId)).toBe(true);
    expect(await t.sql(`SELECT 1 FROM webhook_deliveries WHERE id = ANY($1)`, [[delivered.deliveryId, dead.deliveryId]])).toHaveLength(0);
    expect(await t.sql(`SELECT 1 FROM webhook_delivery_attempts WHERE delivery_id = $1`, [delivered.deliveryId])).toHaveLength(0);

    // Through the API: the purged delivery is gone from the log, its detail and its replay.
    const log = await call('GET', '/deliveries?limit=100');
    const ids = log.body.items.map((d: { id: string }) => d.id);
    expect(ids).not.toContain(delivered.deliveryId);
    expect(ids).toContain(withPendingReplay.deliveryId);
    expect(ids).toContain(recent.deliveryId);
    expect((await call('GET', `/deliveries/${delivered.deliveryId}`)).body.error).toBe('delivery_not_found');
    expect((await call('POST', `/deliveries/${delivered.deliveryId}/replay`)).body.error).toBe('delivery_not_found');

    // Once the replay has finished, its event goes on the next run.
    await t.sql(
      `UPDATE webhook_deliveries SET status = 'DEAD', next_attempt_at = NULL, leased_until = NULL, claim_token = NULL WHERE replay_of = $1`,
      [withPendingReplay.deliveryId],
    );
    rx.answer = () => ({ status: 200, body: '{"ok":true}' });
    expect(await retention().purge(new Date())).toBe(1);
    expect(await exists(withPendingReplay.eventId)).toBe(false);
    expect(await exists(recent.eventId)).toBe(true);
  });

  it('a PENDING original delivery keeps its event however old', async () => {
    rx.answer = () => ({ status: 503 });
    const [pending] = await oldEvents(1, 90, false);
    await waitFor(
      'a failed attempt',
      async () => (await t.sql(`SELECT attempts FROM webhook_deliveries WHERE id = $1`, [pending.deliveryId]))[0].attempts >= 1,
    );
    expect((await t.sql(`SELECT status FROM webhook_deliveries WHERE id = $1`, [pending.deliveryId]))[0].status).toBe('PENDING');
    expect(await retention().purge(new Date())).toBe(0);
    expect(await exists(pending.eventId)).toBe(true);
    await t.sql(
      `UPDATE webhook_deliveries SET status = 'CANCELLED', next_attempt_at = NULL, leased_until = NULL, claim_token = NULL WHERE id = $1`,
      [pending.deliveryId],
    );
    rx.answer = () => ({ status: 200, body: '{"ok":true}' });
  });

  it('works through a backlog in batches of 5 000', async () => {
    const n = 5003;
    await t.sql(
      `WITH ev AS (
         INSERT INTO webhook_events (id, tenant_id, domain, type, data, occurred_at, created_at)
         SELECT 'evt_' || lpad(to_hex(g), 24, '0'), $1, 'acquiring', 'acquiring.payout', '{}'::jsonb, now(), now() - interval '31 days'
         FROM generate_series(1, $2::int) g RETURNING id)
       INSERT INTO webhook_deliveries (tenant_id, event_id, domain, event_type, status, created_at)
       SELECT $1, id, 'acquiring', 'acquiring.payout', 'NO_ENDPOINT', now() FROM ev`,
      [a.tenantId, n],
    );
    expect(await retention().purge(new Date())).toBe(n + 1); // + the cancelled one above
    expect(
      (await t.sql(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND status = 'NO_ENDPOINT'`, [a.tenantId]))[0].n,
    ).toBe(0);
  });

  it('one replica at a time: while another holds the lock, a run deletes nothing', async () => {
    const [old] = await oldEvents(1, 45);
    const other = new Client({ connectionString: t.databaseUrl });
    await other.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext('webhook-retention'))`);
      expect(await retention().purge(new Date())).toBe(0);
      expect(await exists(old.eventId)).toBe(true);
    } finally {
      await other.end();
    }
    expect(await retention().purge(new Date())).toBe(1);
  });

  it('WEBHOOK_RETENTION_DAYS=0 keeps everything', async () => {
    const [old] = await oldEvents(1, 400);
    const config = Object.assign(new WebhooksConfig(), t.app.get(WebhooksConfig), { retentionDays: 0 });
    const off = new WebhookRetention(t.app.get(DataSource), config, t.app.get(PeriodicJobs));
    expect(await off.purge(new Date())).toBe(0);
    expect(await exists(old.eventId)).toBe(true);
  });
});
