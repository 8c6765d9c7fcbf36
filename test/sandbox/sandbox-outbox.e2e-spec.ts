import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import type { AdyenNotificationItem } from '../../kernel/common/protocols/adyen';
import { BACKOFF_SECONDS, SandboxOutbox } from '../../sandbox/src/outbox/sandbox-outbox';
import { SandboxAdyenWebhooks } from '../../sandbox/src/acquirer/adyen/sandbox-adyen-webhooks';
import { PeriodicJobs } from '../../kernel/platform/jobs/periodic-jobs';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../provider/adyen-support';

/**
 * The sandbox's one outbox, on a real PostgreSQL: leases (two passes never take one row), the
 * outcomes it records (delivered, dropped with its reason, retried after the backoff) and
 * a sender that throws kept for later. Its three senders are tested end to end by their suites.
 */
describe('sandbox outbox', () => {
  let t: TestApp;
  let outbox: SandboxOutbox<{ payload: { n: number } }>;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_ACQUIRER_TICK_MS: '60000' } });
    outbox = new SandboxOutbox(t.sandbox.get(DataSource), 'sandbox_acquirer_notifications', 'payload', 'test row');
  });
  afterAll(() => t.close());
  beforeEach(() => t.sql(`DELETE FROM sandbox_acquirer_notifications`));

  const add = async (n: number) =>
    (
      await t.sql<{ id: string }>(`INSERT INTO sandbox_acquirer_notifications (payload) VALUES ($1) RETURNING id`, [JSON.stringify({ n })])
    )[0].id;
  const row = async (id: string) =>
    (
      await t.sql(
        `SELECT attempts, delivered_at IS NOT NULL AS settled, last_error, round(extract(epoch FROM next_attempt_at - now())) AS due_in
         FROM sandbox_acquirer_notifications WHERE id = $1`,
        [id],
      )
    )[0];

  it('leases what it claims: two passes at once share the rows, none twice, and a claimed row waits out its lease', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5, 6].map(add));
    const due = () => outbox.claim('next_attempt_at <= now()', [], 4);
    const [a, b] = await Promise.all([due(), due()]);
    const taken = [...a, ...b].map((r) => r.id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort()).toEqual([...ids].sort());
    expect(await outbox.claim('next_attempt_at <= now()', [], 10)).toEqual([]);
    expect(await row(ids[0])).toMatchObject({ attempts: 1, settled: false });
    expect(Number((await row(ids[0])).due_in)).toBeGreaterThanOrEqual(29);
  });

  it('records delivered, dropped with its reason, and failed with the backoff of the attempt', async () => {
    const [ok, dropped, failed, thrown] = await Promise.all([1, 2, 3, 4].map(add));
    const sent: number[] = [];
    await outbox.deliverNow([ok, dropped, failed, thrown], async (r) => {
      sent.push(r.payload.n);
      if (r.payload.n === 2) return { drop: 'no receiver' };
      if (r.payload.n === 3) return { retry: 'answered 503' };
      if (r.payload.n === 4) throw new Error('socket hang up');
      return null;
    });
    expect(sent.sort()).toEqual([1, 2, 3, 4]);
    expect(await row(ok)).toMatchObject({ attempts: 1, settled: true, last_error: null });
    expect(await row(dropped)).toMatchObject({ attempts: 1, settled: true, last_error: 'no receiver' });
    expect(await row(failed)).toMatchObject({
      attempts: 1,
      settled: false,
      last_error: 'answered 503',
      due_in: String(BACKOFF_SECONDS[0]),
    });
    expect(await row(thrown)).toMatchObject({ attempts: 1, settled: false, last_error: 'socket hang up' });
    // the third failed attempt waits the third backoff
    await t.sql(`UPDATE sandbox_acquirer_notifications SET attempts = 2, next_attempt_at = now() WHERE id = $1`, [failed]);
    expect(await outbox.deliverDue(10, async () => ({ retry: 'answered 503' }))).toBe(1); // the thrown one waits its second
    expect(await row(failed)).toMatchObject({ attempts: 3, due_in: String(BACKOFF_SECONDS[2]) });
  });
});

const authorisation = (pspReference: string, merchantReference: string): AdyenNotificationItem => ({
  pspReference,
  merchantAccountCode: 'SandboxMerchantBR',
  merchantReference,
  eventCode: 'AUTHORISATION',
  eventDate: new Date().toISOString(),
  success: 'true',
  amount: { currency: 'BRL', value: 100 },
});

describe("sandbox Adyen face's webhooks with no receiver", () => {
  let t: TestApp;
  let hits = 0;
  let sink: Server;
  beforeAll(async () => {
    sink = createServer((_req, res) => (hits++, res.writeHead(200).end('[accepted]')));
    await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
    t = await startTestApp(); // the generic acquirer protocol: this service has no Adyen route
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => sink.close(r));
  });

  it('keeps an item, sends nothing and says why, as Adyen does for an account with no webhook', async () => {
    const webhooks = t.sandbox.get(SandboxAdyenWebhooks);
    await webhooks.enqueue('k1', authorisation('PSP0000000000001', 'pay_1'));
    await webhooks.deliverDue(); // or the job its enqueue kicked: whichever claims it first
    const r = await until(
      async () => (await t.sql(`SELECT attempts, last_error FROM sandbox_adyen_webhooks WHERE delivered_at IS NOT NULL`))[0],
    );
    expect(r.attempts).toBe(1);
    expect(r.last_error).toMatch(/no webhook endpoint configured/);
    expect(hits).toBe(0);
    expect(t.sandbox.get(PeriodicJobs).scheduled()).toContain('sandbox-adyen-webhooks');
  });

  it('runs no sandbox sender where the sandbox is off', async () => {
    const off = await startTestApp({
      env: {
        SANDBOX_ENABLED: 'false',
        PROVIDER_URL: 'http://127.0.0.1:9',
        ACQUIRER_URL: 'http://127.0.0.1:9',
        THREE_DS_SERVER_URL: 'http://127.0.0.1:9',
      },
    });
    try {
      expect(
        off.app
          .get(PeriodicJobs)
          .scheduled()
          .filter((n) => n.startsWith('sandbox-')),
      ).toEqual([]);
    } finally {
      await off.close();
    }
  });

  it('posts to SANDBOX_ADYEN_WEBHOOK_URL when one is configured', async () => {
    const port = (sink.address() as AddressInfo).port;
    const other = await startTestApp({ env: { SANDBOX_ADYEN_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks` } });
    try {
      const webhooks = other.sandbox.get(SandboxAdyenWebhooks);
      await webhooks.enqueue('k2', authorisation('PSP0000000000002', 'pay_2'));
      await webhooks.deliverDue();
      const r = await until(
        async () => (await other.sql(`SELECT attempts, last_error FROM sandbox_adyen_webhooks WHERE delivered_at IS NOT NULL`))[0],
      );
      expect(r).toEqual({ attempts: 1, last_error: null });
      expect(hits).toBe(1);
    } finally {
      await other.close();
    }
  });
});
