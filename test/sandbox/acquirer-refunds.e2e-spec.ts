import { randomUUID } from 'node:crypto';
import type { AcquirerNotification } from '../../kernel/common/protocols/acquirer-events';
import type { CardDisputeNotificationData, CardRefundNotificationData } from '../../kernel/common/protocols/acquirer-refunds';
import { AcquirerEvents } from '../../src/provider/acquirer/acquirer-events';
import { SandboxAcquirerConfig } from '../../sandbox/src/acquirer/sandbox-acquirer.config';
import { SandboxCardCasesTicker } from '../../sandbox/src/acquirer/sandbox-card-cases.ticker';
import { http, startTestApp, TestApp } from '../support/test-app';

/**
 * Refunds and disputes on the sandbox acquirer's own protocol (common/protocols/acquirer-refunds.ts),
 * over real HTTP and the real PostgreSQL: the test amounts, idempotency by refundId, the sum
 * against what was captured, and a dispute played on the test clock. Outcomes arrive as signed
 * notifications at the service's `/provider/acquirer-events`.
 */
describe('sandbox acquirer (service protocol): refunds and disputes', () => {
  let t: TestApp;
  let key: string;
  const seen: AcquirerNotification[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_ACQUIRER_TICK_MS: '60000' } });
    key = t.sandbox.get(SandboxAcquirerConfig).apiKey;
    t.app.get(AcquirerEvents).subscribe('test', async (e) => {
      seen.push(e);
      return true;
    });
  });
  afterAll(() => t.close());

  const acq = (method: string, path: string, body?: unknown) =>
    http(t.sandboxUrl, method, `/sandbox/acquirer/v1${path}`, body, { 'x-acquirer-key': key });
  const tick = () => t.sandbox.get(SandboxCardCasesTicker).runOnce();
  const refundEvents = (acquirerTransactionId: string) =>
    seen
      .filter(
        (e) =>
          e.type === 'card_refund.updated' &&
          (e.data as unknown as CardRefundNotificationData).acquirerTransactionId === acquirerTransactionId,
      )
      .map((e) => e.data as unknown as CardRefundNotificationData);

  async function sale(amountCents: number, capture: 'SALE' | 'PREAUTH' = 'SALE', transactionId = `pay_${randomUUID()}`): Promise<string> {
    const r = await acq('POST', '/card-authorizations', {
      transactionId,
      merchantId: 'mer_1',
      amountCents,
      installments: 1,
      capture,
      card: { pan: '4111111111111111', expMonth: 12, expYear: 2030 },
    });
    expect(r.status).toBe(200);
    return r.body.acquirerTransactionId;
  }
  const refund = (id: string, refundId: string, amountCents: number) =>
    acq('POST', `/card-authorizations/${id}/refunds`, { refundId, amountCents });

  it('plays each test amount: …13 fails, …14 succeeds then fails, …15 succeeds then is reversed, any other succeeds on the next tick', async () => {
    const id = await sale(100_00);
    const ids = {
      declined: `rf_${randomUUID()}`,
      failsLater: `rf_${randomUUID()}`,
      reversed: `rf_${randomUUID()}`,
      ok: `rf_${randomUUID()}`,
    };
    const answers = [
      await refund(id, ids.declined, 10_13),
      await refund(id, ids.failsLater, 10_14),
      await refund(id, ids.reversed, 10_15),
      await refund(id, ids.ok, 10_00),
    ];
    for (const [i, a] of answers.entries()) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual({
        refundId: Object.values(ids)[i],
        acquirerRefundId: expect.stringMatching(/^rfd_[0-9a-f]{24}$/),
        status: 'PENDING',
      });
    }
    // the same refundId answers the same refund, whatever the body
    const again = await refund(id, ids.ok, 1);
    expect(again.body).toEqual(answers[3].body);
    expect(refundEvents(id)).toEqual([]);

    await tick();
    // delivered at once and in parallel: in any order
    const byRefund = (a: CardRefundNotificationData, b: CardRefundNotificationData) =>
      order.indexOf(a.transactionId) - order.indexOf(b.transactionId);
    const order = Object.values(ids);
    const first = refundEvents(id).sort(byRefund);
    expect(first.map((d) => [d.transactionId, d.status, d.reason])).toEqual([
      [ids.declined, 'FAILED', 'refund_declined'],
      [ids.failsLater, 'SUCCEEDED', undefined],
      [ids.reversed, 'SUCCEEDED', undefined],
      [ids.ok, 'SUCCEEDED', undefined],
    ]);
    expect(first[3]).toEqual({
      transactionId: ids.ok,
      merchantId: 'mer_1',
      acquirerId: answers[3].body.acquirerRefundId,
      acquirerTransactionId: id,
      status: 'SUCCEEDED',
      amountCents: 10_00,
    });

    await tick();
    expect(
      refundEvents(id)
        .slice(4)
        .sort(byRefund)
        .map((d) => [d.transactionId, d.status, d.reason]),
    ).toEqual([
      [ids.failsLater, 'FAILED', 'refund_failed_at_scheme'],
      [ids.reversed, 'REVERSED', undefined],
    ]);
    await tick();
    expect(refundEvents(id)).toHaveLength(6);
    // a repeat now answers the refund as decided
    expect((await refund(id, ids.failsLater, 10_14)).body).toMatchObject({ status: 'FAILED', reason: 'refund_failed_at_scheme' });
    expect((await refund(id, ids.declined, 10_13)).body).toMatchObject({ status: 'FAILED', reason: 'refund_declined' });
  });

  it('refuses refunds past what was captured (summed over refunds not failed), of an uncaptured or unknown transaction', async () => {
    const id = await sale(50_00);
    expect((await refund(id, `rf_${randomUUID()}`, 30_00)).status).toBe(200);
    const over = await refund(id, `rf_${randomUUID()}`, 20_01);
    expect([over.status, over.body.error]).toEqual([422, 'refund_exceeds_captured']);
    const declined = await refund(id, `rf_${randomUUID()}`, 10_13); // pending: it still counts
    expect(declined.status).toBe(200);
    expect((await refund(id, `rf_${randomUUID()}`, 10_00)).status).toBe(422);
    await tick(); // the …13 refund failed: its amount is refundable again
    expect((await refund(id, `rf_${randomUUID()}`, 20_00)).status).toBe(200);
    expect((await refund(id, `rf_${randomUUID()}`, 1)).body.error).toBe('refund_exceeds_captured');

    const pre = await sale(100_00, 'PREAUTH');
    const notCaptured = await refund(pre, `rf_${randomUUID()}`, 1_00);
    expect([notCaptured.status, notCaptured.body.error]).toEqual([409, 'not_refundable']);
    expect((await acq('POST', `/card-authorizations/${pre}/capture`, { amountCents: 60_00 })).status).toBe(200);
    expect((await refund(pre, `rf_${randomUUID()}`, 60_01)).status).toBe(422);
    expect((await refund(pre, `rf_${randomUUID()}`, 60_00)).status).toBe(200);

    const unknown = await refund('ctx_nope', `rf_${randomUUID()}`, 1_00);
    expect([unknown.status, unknown.body.error]).toEqual([404, 'card_transaction_not_found']);
    const unsigned = await http(t.sandboxUrl, 'POST', `/sandbox/acquirer/v1/card-authorizations/${id}/refunds`, {
      refundId: 'x',
      amountCents: 1,
    });
    expect(unsigned.status).toBe(401);
    for (const body of [
      { refundId: '', amountCents: 1 },
      { refundId: 'x', amountCents: 0 },
      { refundId: 'x', amountCents: 1.5 },
      { amountCents: 1 },
    ]) {
      expect((await acq('POST', `/card-authorizations/${id}/refunds`, body)).status).toBe(400);
    }
  });

  it('never lets racing refunds together pass what was captured', async () => {
    const id = await sale(50_00);
    const answers = await Promise.all(Array.from({ length: 12 }, () => refund(id, `rf_${randomUUID()}`, 10_00)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(7);
    expect(await t.sql(`SELECT sum(amount_cents)::int AS n FROM sandbox_acquirer_refunds WHERE card_transaction_id = $1`, [id])).toEqual([
      { n: 50_00 },
    ]);
  });

  it('plays a dispute on the test clock, one stage a day, as card_dispute.updated; a standing chargeback is no longer refundable', async () => {
    const id = await sale(80_00);
    expect((await refund(id, `rf_${randomUUID()}`, 30_00)).status).toBe(200);
    const opened = await http(t.sandboxUrl, 'POST', '/sandbox/acquirer/disputes', {
      acquirerTransactionId: id,
      sequence: 'chargeback_lost',
    });
    expect(opened.status).toBe(201);
    expect(opened.body).toEqual({
      disputeId: expect.stringMatching(/^dsp_[0-9a-f]{24}$/),
      acquirerTransactionId: id,
      face: 'generic',
      sequence: 'chargeback_lost',
      stages: ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED'],
      amount: 50,
      reasonCode: '10.4',
      defendBy: expect.stringMatching(/Z$/),
    });
    const disputes = () =>
      seen
        .filter(
          (e) =>
            e.type === 'card_dispute.updated' && (e.data as unknown as CardDisputeNotificationData).acquirerId === opened.body.disputeId,
        )
        .map((e) => e.data as unknown as CardDisputeNotificationData);
    for (let day = 0; day < 4; day++) expect((await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 1 })).status).toBe(200);
    const got = disputes();
    expect(got.map((d) => d.status)).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED']);
    expect(got[0]).toEqual({
      transactionId: expect.stringMatching(/^pay_/),
      merchantId: 'mer_1',
      acquirerId: opened.body.disputeId,
      acquirerTransactionId: id,
      status: 'NOTIFICATION_OF_CHARGEBACK',
      amountCents: 50_00,
      reasonCode: '10.4',
      defendBy: opened.body.defendBy,
      at: expect.stringMatching(/Z$/),
    });
    expect(got[2].defendBy).toBeUndefined();
    expect((await refund(id, `rf_${randomUUID()}`, 1)).body.error).toBe('refund_exceeds_captured');
  });

  it('answers the dispute route with clear errors', async () => {
    const id = await sale(10_00);
    const post = (body: unknown) => http(t.sandboxUrl, 'POST', '/sandbox/acquirer/disputes', body);
    expect((await post({ acquirerTransactionId: id, sequence: 'nope' })).status).toBe(400);
    expect((await post({ sequence: 'rfi' })).status).toBe(400);
    expect((await post({ acquirerTransactionId: id, pspReference: 'ABC', sequence: 'rfi' })).status).toBe(400);
    const unknown = await post({ acquirerTransactionId: 'ctx_nope', sequence: 'rfi' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'acquirer_transaction_not_found']);
    // by the service's payment id (the transactionId it gave the acquirer)
    const paymentId = `pay_${randomUUID()}`;
    const byPayment = await sale(12_34, 'SALE', paymentId);
    const rfi = await post({ paymentReference: paymentId, sequence: 'rfi' });
    expect(rfi.body).toMatchObject({ acquirerTransactionId: byPayment, stages: ['REQUEST_FOR_INFORMATION'], amount: 12.34 });
    const pre = await sale(10_00, 'PREAUTH');
    const notCaptured = await post({ acquirerTransactionId: pre, sequence: 'rfi' });
    expect([notCaptured.status, notCaptured.body.error]).toEqual([409, 'not_disputable']);
  });
});
