import { randomUUID } from 'node:crypto';
import { AcquirerNotification, signAcquirerEvent } from '../../kernel/common/protocols/acquirer-events';
import { AcquirerConfig } from '../../src/provider/acquirer/acquirer.config';
import { AcquirerEvents } from '../../src/provider/acquirer/acquirer-events';
import { http, startTestApp, TestApp } from '../support/test-app';
import { until } from './adyen-support';

/**
 * The generic acquirer's notifications on the one job queue: each is kept once by its eventId
 * before the 200, and applied in its own job (at once, then by the worker). A notification
 * whose application throws is kept (still 200: the acquirer does not redeliver), retried on its
 * backoff, then dead, and holds no later one back; it shows in the metric, readiness and the
 * operator's list, and a replay applies it once. A signed notification whose fields are
 * malformed is kept as rejected at the edge.
 */
describe('generic acquirer notifications on the job queue', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  const admin = () => ({ 'X-Admin-Key': t.adminKey });
  const applied: string[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { ACQUIRER_EVENTS_MAX_ATTEMPTS: '3', ACQUIRER_EVENTS_RETRY_BASE_MS: '100' } });
  });
  afterAll(() => t?.close());

  const notification = (over: Partial<AcquirerNotification['data']> = {}): AcquirerNotification => ({
    eventId: randomUUID(),
    type: 'pix_charge.updated',
    occurredAt: new Date().toISOString(),
    data: {
      transactionId: randomUUID(),
      merchantId: 'mer_1',
      acquirerId: `txid${Date.now()}`,
      status: 'SETTLED',
      amountCents: 700,
      ...over,
    },
  });
  const send = (e: AcquirerNotification) => {
    const body = JSON.stringify(e);
    const signature = signAcquirerEvent(t.app.get(AcquirerConfig).eventsSecret, Math.floor(Date.now() / 1000), body);
    return http(t.url, 'POST', '/provider/acquirer-events', body, {
      'content-type': 'application/json',
      'x-acquirer-signature': signature,
    });
  };
  const stored = async (e: AcquirerNotification) =>
    (
      await t.sql(
        `SELECT n.applied_at IS NOT NULL AS applied, n.rejected_reason, n.handled_by, j.status AS job, j.attempts, j.last_error
           FROM acquirer_notifications n LEFT JOIN jobs j ON j.kind = 'acquirer.notification' AND j.key = n.event_id
          WHERE n.event_id = $1`,
        [e.eventId],
      )
    )[0];

  it('a failing notification is kept, retried, then dead, while later ones are applied; a replay applies it once', async () => {
    const faulty = notification();
    let fault = true;
    let appliedFaulty = 0;
    t.app.get(AcquirerEvents).subscribe('fault-injection', async (e) => {
      if (e.data.transactionId !== faulty.data.transactionId) {
        applied.push(e.eventId);
        return true;
      }
      if (fault) throw new Error('injected fault');
      appliedFaulty++;
      return true;
    });

    const first = await send(faulty);
    expect([first.status, first.body]).toEqual([200, { received: true, status: 'pending' }]);
    const later = [notification(), notification(), notification({ status: 'EXPIRED' })];
    for (const e of later) {
      const r = await send(e);
      expect([r.status, r.body]).toEqual([200, { received: true, status: 'applied', handledBy: ['fault-injection'] }]);
      expect(await stored(e)).toMatchObject({ applied: true, job: 'done', attempts: 0, handled_by: ['fault-injection'] });
    }
    expect(applied).toEqual(later.map((e) => e.eventId));

    // signed, but what a subscriber would read is not sound: kept as rejected, never applied
    const malformed = notification({ amountCents: -5 });
    const rejected = await send(malformed);
    expect([rejected.status, rejected.body]).toEqual([
      200,
      { received: true, status: 'rejected', reason: 'data.amountCents is not an amount in centavos' },
    ]);
    expect(await stored(malformed)).toMatchObject({
      applied: false,
      rejected_reason: 'data.amountCents is not an amount in centavos',
      job: null,
    });
    // an eventId that is no id is no notification at all
    expect((await send({ ...notification(), eventId: 'has a space' })).body.error).toBe('acquirer_event_invalid');

    const dead = await until(async () => {
      const s = await stored(faulty);
      return s.job === 'dead' ? s : null;
    }, 15_000);
    expect(dead).toMatchObject({ applied: false, attempts: 3, last_error: 'injected fault' });
    expect(applied).toHaveLength(3); // nothing applied twice meanwhile

    await until(async () =>
      /job_queue_jobs\{kind="acquirer.notification",status="dead"\} 1/.test((await http(t.url, 'GET', '/metrics')).text),
    );
    const ready = await http(t.url, 'GET', '/health/ready', undefined, admin());
    expect(ready.status).toBe(200);
    expect(ready.body.details.jobQueue).toMatchObject({ status: 'up', degraded: true, dead: { 'acquirer.notification': 1 } });
    const list = await http(t.url, 'GET', '/admin/jobs/dead?kind=acquirer.notification', undefined, admin());
    expect(list.body.items).toEqual([
      expect.objectContaining({ key: faulty.eventId, status: 'dead', attempts: 3, lastError: 'injected fault' }),
    ]);

    // a redelivery of a kept notification adds nothing, dead or not
    expect((await send(faulty)).body).toEqual({ received: true, status: 'duplicate' });
    expect((await send(later[0])).body).toEqual({ received: true, status: 'duplicate' });
    expect(await t.sql(`SELECT count(*)::int AS n FROM acquirer_notifications WHERE event_id = $1`, [faulty.eventId])).toEqual([{ n: 1 }]);

    fault = false;
    const replay = await http(t.url, 'POST', `/admin/jobs/${list.body.items[0].id}/replay`, undefined, admin());
    expect([replay.status, replay.body.status]).toEqual([200, 'pending']);
    expect(await until(async () => (await stored(faulty)).applied, 15_000)).toBe(true);
    expect(await stored(faulty)).toMatchObject({ job: 'done', handled_by: ['fault-injection'] });
    expect(appliedFaulty).toBe(1);
    expect(applied).toHaveLength(3);
    await until(async () =>
      /job_queue_jobs\{kind="acquirer.notification",status="dead"\} 0/.test((await http(t.url, 'GET', '/metrics')).text),
    );
  });
});
