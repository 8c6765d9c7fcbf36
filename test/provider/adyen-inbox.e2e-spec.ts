import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { adyenHmacKey, AdyenNotificationItem, signAdyenItem } from '../../kernel/common/protocols/adyen';
import { AcquirerEvents } from '../../src/provider/acquirer/acquirer-events';
import { spawnService } from '../support/service-process';
import { freshDatabase, http, startTestApp, TEST_ADMIN_KEY, TestApp } from '../support/test-app';
import { ADYEN_API_KEY, ADYEN_HMAC_KEY, ADYEN_WEBHOOK_AUTH, ADYEN_WEBHOOK_PASSWORD, until } from './adyen-support';

/**
 * Adyen's webhook items on the one job queue: each kept item is applied in its own transaction,
 * marked applied in it. An item whose application throws is retried on its backoff, then dead,
 * and holds no other item back; it shows in the metric, in readiness (degraded) and in the
 * operator's list, and a replay applies it once. An item whose unsigned fields are malformed is
 * kept as rejected at the edge. A replica killed between keeping an item and applying it leaves
 * the item to the next one, which applies it once.
 */
const ADYEN_ENV = {
  ACQUIRER_PROVIDER: 'adyen',
  ADYEN_API_KEY,
  ADYEN_HMAC_KEY,
  ADYEN_WEBHOOK_PASSWORD,
  ADYEN_WEBHOOK_MAX_ATTEMPTS: '3',
  ADYEN_WEBHOOK_RETRY_BASE_MS: '100',
};

const item = (n: number, over: Partial<AdyenNotificationItem> = {}): AdyenNotificationItem => ({
  pspReference: `INBOX${String(n).padStart(11, '0')}`,
  merchantAccountCode: 'SandboxMerchantBR',
  merchantReference: `pay_INBOXTEST${String(n).padStart(13, '0')}`,
  eventCode: 'CHARGEBACK',
  eventDate: '2026-12-07T10:00:00+00:00',
  success: 'true',
  amount: { currency: 'BRL', value: 1000 + n },
  additionalData: { defensePeriodEndsAt: '2026-12-20T10:00:00+00:00' },
  ...over,
});

/** POSTs items as Adyen does: Basic auth, each item signed with the HMAC key (which leaves additionalData out). */
async function deliver(base: string, ...items: AdyenNotificationItem[]): Promise<[number, string]> {
  const key = adyenHmacKey(ADYEN_HMAC_KEY);
  const notificationItems = items.map((i) => ({
    NotificationRequestItem: { ...i, additionalData: { ...i.additionalData, hmacSignature: signAdyenItem(key, i) } },
  }));
  const r = await fetch(`${base}/provider/adyen/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: ADYEN_WEBHOOK_AUTH },
    body: JSON.stringify({ live: 'false', notificationItems }),
  });
  return [r.status, await r.text()];
}

describe('Adyen webhook items on the job queue', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  const admin = () => ({ 'X-Admin-Key': t.adminKey });
  const stored = async (n: number) =>
    (
      await t.sql(
        `SELECT n.id::text, n.applied_at IS NOT NULL AS applied, n.rejected_reason, j.status AS job, j.attempts, j.last_error
           FROM adyen_notifications n LEFT JOIN jobs j ON j.kind = 'adyen.notification' AND j.key = n.id::text
          WHERE n.psp_reference = $1`,
        [item(n).pspReference],
      )
    )[0];

  beforeAll(async () => {
    t = await startTestApp({ env: ADYEN_ENV });
  });
  afterAll(() => t?.close());

  it('a poisoned item is retried, then dead, while every later one is applied; a replay applies it once', async () => {
    const faulty = item(1);
    let fault = true;
    let appliedFaulty = 0;
    // a fault injected in the handlers of the faulty item's reports
    t.app.get(AcquirerEvents).subscribe('fault-injection', async (e) => {
      if ((e.data as { transactionId?: string }).transactionId !== faulty.merchantReference) return false;
      if (fault) throw new Error('injected fault');
      appliedFaulty++;
      return false;
    });

    expect(await deliver(t.url, faulty)).toEqual([200, '[accepted]']);
    for (let n = 2; n <= 6; n++) expect(await deliver(t.url, item(n))).toEqual([200, '[accepted]']);
    // the report that held the old batch for minutes: signed, but its deadline is not a date
    expect(await deliver(t.url, item(7, { additionalData: { defensePeriodEndsAt: 'next week' } }))).toEqual([200, '[accepted]']);

    for (let n = 2; n <= 6; n++) expect(await until(async () => (await stored(n)).applied, 15_000)).toBe(true);
    expect(await stored(7)).toMatchObject({
      applied: false,
      rejected_reason: 'additionalData.defensePeriodEndsAt is not a date',
      job: null,
    });
    const dead = await until(async () => {
      const s = await stored(1);
      return s.job === 'dead' ? s : null;
    }, 15_000);
    expect(dead).toMatchObject({ applied: false, attempts: 3, last_error: 'injected fault' });

    // visible: the metric, readiness (degraded, not down), the operator's list
    await until(async () =>
      /job_queue_jobs\{kind="adyen.notification",status="dead"\} 1/.test((await http(t.url, 'GET', '/metrics')).text),
    );
    const ready = await http(t.url, 'GET', '/health/ready', undefined, admin());
    expect(ready.status).toBe(200);
    expect(ready.body.details.jobQueue).toMatchObject({ status: 'up', degraded: true, dead: { 'adyen.notification': 1 } });
    const summary = await http(t.url, 'GET', '/health/ready');
    expect(summary.status).toBe(200);
    expect(JSON.stringify(summary.body)).not.toContain('injected fault');
    const list = await http(t.url, 'GET', '/admin/jobs/dead?kind=adyen.notification', undefined, admin());
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: expect.any(String), key: dead.id, status: 'dead', attempts: 3, lastError: 'injected fault' }),
    ]);
    expect((await http(t.url, 'GET', '/admin/jobs/dead')).status).toBe(401);

    // the cause fixed, the operator replays it: applied once
    fault = false;
    const jobId = list.body.items[0].id;
    const replay = await http(t.url, 'POST', `/admin/jobs/${jobId}/replay`, undefined, admin());
    expect([replay.status, replay.body.status, replay.body.attempts]).toEqual([200, 'pending', 0]);
    expect(await until(async () => (await stored(1)).applied, 15_000)).toBe(true);
    expect(await stored(1)).toMatchObject({ job: 'done' });
    expect(appliedFaulty).toBe(1);
    const again = await http(t.url, 'POST', `/admin/jobs/${jobId}/replay`, undefined, admin());
    expect([again.status, again.body.error]).toEqual([404, 'job_not_found']);
    await until(async () =>
      /job_queue_jobs\{kind="adyen.notification",status="dead"\} 0/.test((await http(t.url, 'GET', '/metrics')).text),
    );
    const after = await http(t.url, 'GET', '/health/ready', undefined, admin());
    expect(after.body.details.jobQueue).toMatchObject({ status: 'up', dead: {} });
    expect(after.body.details.jobQueue.degraded).toBeUndefined();
    // a duplicate delivery of an applied item adds nothing
    expect(await deliver(t.url, item(2))).toEqual([200, '[accepted]']);
    expect(await t.sql(`SELECT count(*)::int AS n FROM adyen_notifications WHERE psp_reference = $1`, [item(2).pspReference])).toEqual([
      { n: 1 },
    ]);
  });
});

describe('a replica killed between keeping an Adyen item and applying it', () => {
  jest.setTimeout(180_000);

  it('leaves the item to the next replica, which applies it once', async () => {
    const db = await freshDatabase('inbox');
    const env = { ...ADYEN_ENV, DATABASE_URL: db.url, ADMIN_API_KEY: TEST_ADMIN_KEY, DATA_DIR: mkdtempSync(join(tmpdir(), 'pp-inbox-')) };
    const sql = new Client({ connectionString: db.url });
    const row = async () =>
      (
        await sql.query(
          `SELECT n.applied_at IS NOT NULL AS applied, j.status, j.attempts
             FROM adyen_notifications n JOIN jobs j ON j.kind = 'adyen.notification' AND j.key = n.id::text
            WHERE n.psp_reference = $1`,
          [item(100).pspReference],
        )
      ).rows;
    // the first replica keeps the item (and its job) and dies before it applies anything
    const first = await spawnService({ ...env, JOB_QUEUE_WORKER_ENABLED: 'false' });
    try {
      await first.waitReady();
      await sql.connect();
      expect(await deliver(first.url, item(100))).toEqual([200, '[accepted]']);
      expect(await row()).toEqual([{ applied: false, status: 'pending', attempts: 0 }]);
      first.proc.kill('SIGKILL');
      await first.exited;
      const second = await spawnService(env);
      try {
        await second.waitReady();
        const done = await until(async () => {
          const r = await row();
          return r[0]?.applied ? r : null;
        }, 20_000);
        expect(done).toEqual([{ applied: true, status: 'done', attempts: 0 }]);
        // delivered again by Adyen (it never saw the first answer): nothing more
        expect(await deliver(second.url, item(100))).toEqual([200, '[accepted]']);
        expect((await sql.query(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'adyen.notification'`)).rows).toEqual([{ n: 1 }]);
      } finally {
        second.proc.kill('SIGKILL');
        await second.exited;
      }
    } finally {
      first.proc.kill('SIGKILL');
      await sql.end().catch(() => undefined);
      await db.drop();
    }
  });
});
