import { api } from '../cards/support';
import { until } from '../provider/adyen-support';
import { http } from '../support/test-app';
import { onCardEdge } from './support';

/**
 * A refund's re-sends on the one job queue (ACQUIRER_PROVIDER=adyen, through recording hops): the
 * acquirer answering 5xx to every refund call, the refund's job is retried on its backoff, then
 * dead after REFUND_SEND_MAX_ATTEMPTS with the refund still PENDING; the dead job shows in the
 * metric, in readiness (the acquirer degraded) and in the operator's list; once the acquirer
 * answers again, the operator's replay sends it once more and the refund completes, one refund at
 * Adyen.
 */
describe('a refund whose sends all fail (ACQUIRER_PROVIDER=adyen)', () => {
  jest.setTimeout(120_000);
  const edge = onCardEdge('adyen', {
    ACQUIRER_RETRY_DELAYS_MS: '10',
    REFUND_SEND_MAX_ATTEMPTS: '3',
    REFUND_SEND_RETRY_BASE_MS: '100',
    ACQUIRER_BREAKER_RESET_MS: '1000',
  });
  const admin = () => ({ 'X-Admin-Key': edge.c.t.adminKey });
  const job = async (refundId: string) =>
    (await edge.c.t.sql(`SELECT id::text, kind, status, attempts, last_error FROM jobs WHERE key = $1`, [refundId]))[0];

  it('is retried, then dead and visible with the refund PENDING; a replay completes it once', async () => {
    const { c, hops } = edge;
    const paymentId = await edge.pay(31);
    // the REFUND webhook held, so only a send can move the refund; every refund call answered 502
    let release!: () => void;
    hops.hooks.gate = new Promise<void>((r) => (release = r));
    hops.checkout.onAnswer = (e) =>
      e.path.endsWith('/refunds')
        ? { status: 502, body: { status: 502, errorCode: '000', message: 'down', errorType: 'internal' } }
        : undefined;
    try {
      const r = await api(c, 'POST', `/v1/acquiring/payments/${paymentId}/refunds`, { amount: 31, reason: 'duplicate' });
      expect([r.status, r.body.status]).toEqual([201, 'PENDING']);
      const refundId: string = r.body.refundId;
      expect(await job(refundId)).toMatchObject({ kind: 'refund.send.card', status: 'pending', attempts: 0 });

      // its job, 30 s after the request (made due now), fails on every try and is dead after three
      await c.t.sql(`UPDATE jobs SET run_at = now() WHERE key = $1`, [refundId]);
      const dead = await until(async () => {
        const j = await job(refundId);
        return j.status === 'dead' ? j : null;
      }, 20_000);
      expect(dead).toMatchObject({ attempts: 3, last_error: expect.stringMatching(/^no answer from the acquirer/) });
      const sent = () => hops.to('/refunds').filter((e) => JSON.parse(e.request).reference === refundId);
      expect(sent().length).toBeGreaterThanOrEqual(4); // the request's send and three tries (each with the client's own retries)
      expect((await api(c, 'GET', `/v1/acquiring/refunds/${refundId}`)).body).toMatchObject({ status: 'PENDING' });

      // visible: the metric, readiness (the acquirer degraded, not down), the operator's list
      await until(async () =>
        /job_queue_jobs\{kind="refund.send.card",status="dead"\} 1/.test((await http(c.t.url, 'GET', '/metrics')).text),
      );
      const summary = await http(c.t.url, 'GET', '/health/ready');
      expect([summary.status, summary.body.details.acquirer]).toEqual([200, { status: 'up', degraded: true }]);
      const ready = await http(c.t.url, 'GET', '/health/ready', undefined, admin());
      expect(ready.body.details.jobQueue).toMatchObject({ degraded: true, dead: { 'refund.send.card': 1 } });
      const list = await http(c.t.url, 'GET', '/admin/jobs/dead?kind=refund.send.card', undefined, admin());
      expect(list.body.items).toEqual([expect.objectContaining({ id: dead.id, key: refundId, status: 'dead', attempts: 3 })]);

      // the acquirer answers again (and its breaker lets a call through); the operator replays: sent
      // once more, taken, then settled by its notification
      hops.checkout.onAnswer = null;
      await until(async () => {
        const b = (await http(c.t.url, 'GET', '/health/ready', undefined, admin())).body.details.circuitBreakers;
        return b['acquirer.refundCard'] !== 'open';
      }, 15_000);
      const replay = await http(c.t.url, 'POST', `/admin/jobs/${dead.id}/replay`, undefined, admin());
      expect([replay.status, replay.body.status]).toEqual([200, 'pending']);
      await until(async () => (await job(refundId)).status === 'done', 15_000);
      const before = sent().length;
      release();
      const done = await until(async () => {
        const x = await api(c, 'GET', `/v1/acquiring/refunds/${refundId}`);
        return x.body.status === 'SUCCEEDED' ? x.body : null;
      }, 15_000);
      expect(done.providerReference).toMatch(/^[0-9A-Z]{16}$/);
      expect(new Set(sent().map((e) => JSON.parse(e.answer).pspReference)).size).toBe(1); // one refund at Adyen
      expect(new Set(sent().map((e) => e.headers['idempotency-key']))).toEqual(new Set([refundId]));
      expect(sent().length).toBe(before); // nothing sent after the replay's one
      await until(async () =>
        /job_queue_jobs\{kind="refund.send.card",status="dead"\} 0/.test((await http(c.t.url, 'GET', '/metrics')).text),
      );
      expect((await http(c.t.url, 'GET', '/health/ready')).body.details.acquirer).toEqual({ status: 'up' });
    } finally {
      hops.checkout.onAnswer = null;
      hops.hooks.gate = null;
      release();
    }
  });
});
