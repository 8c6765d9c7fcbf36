import { randomUUID } from 'node:crypto';
import { AcquirerEvents } from '../../src/provider/acquirer/acquirer-events';
import { api, CardsApp } from '../cards/support';
import { onCardEdge, resendNow } from './support';
import { AdyenHops, until } from '../provider/adyen-support';
import { checkoutErrors, operationSchema, webhookErrors } from '../support/adyen-contract';

/**
 * Refunds of card payments on both card edges, against the sandbox acquirer over real HTTP and
 * the real PostgreSQL: parts up to the captured amount and not a cent more (also when 20 race),
 * a pre-authorization released, the sandbox's failing, failing-later and reversed refunds, a
 * lost answer re-sent with the same key, duplicate and out-of-order notifications.
 */
describe.each(['generic', 'adyen'] as const)('card refunds (ACQUIRER_PROVIDER=%s)', (provider) => {
  const edge = onCardEdge(provider);
  const sale = (amount: number, captureMode: 'SALE' | 'PREAUTH' = 'SALE') => edge.pay(amount, captureMode);
  let c: CardsApp;
  let hops: AdyenHops;
  beforeAll(() => {
    c = edge.c;
    hops = edge.hops;
  });

  const refund = (paymentId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    api(c, 'POST', `/v1/acquiring/payments/${paymentId}/refunds`, { reason: 'requested_by_customer', ...body }, headers);
  const settled = (refundId: string, status: string) =>
    until(async () => {
      const r = await api(c, 'GET', `/v1/acquiring/refunds/${refundId}`);
      return r.body.status === status ? r.body : null;
    }, 15000);
  const payment = async (id: string) => (await api(c, 'GET', `/v1/acquiring/payments/${id}`)).body;
  const refundEvents = async (refundId: string) =>
    (
      await c.t.sql(
        `SELECT data->>'status' AS status FROM webhook_events WHERE type = 'acquiring.refund' AND id_tx = $1 ORDER BY created_at, id`,
        [refundId],
      )
    ).map((r) => r.status);

  it('refunds in two parts, refuses a third over the captured amount, and shows the totals on the payment', async () => {
    const id = await sale(100);
    expect(await payment(id)).toMatchObject({ refundedAmount: 0, refundableAmount: 100 });
    const first = await refund(id, { amount: 40, description: 'Pedido 1 devolvido' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ paymentId: id, amount: 40, method: 'refund', currency: 'BRL', reason: 'requested_by_customer' });
    expect(['PENDING', 'SUCCEEDED']).toContain(first.body.status);
    await settled(first.body.refundId, 'SUCCEEDED');
    const second = await refund(id, { amount: 60 });
    expect(second.status).toBe(201);
    await settled(second.body.refundId, 'SUCCEEDED');
    const third = await refund(id, { amount: 0.01 });
    expect(third.status).toBe(422);
    expect(third.body).toMatchObject({ error: 'refund_exceeds_refundable', details: [{ field: 'amount', code: 'max' }] });
    expect(await payment(id)).toMatchObject({ status: 'ACCEPTED', refundedAmount: 100, refundableAmount: 0 });
    const listed = await api(c, 'GET', `/v1/acquiring/payments/${id}/refunds`);
    expect(listed.body.total).toBe(2);
    expect((await api(c, 'GET', `/v1/acquiring/refunds?paymentId=${id}`)).body.items.map((r: any) => r.amount).sort()).toEqual([40, 60]);
    expect(await refundEvents(first.body.refundId)).toEqual(['PENDING', 'SUCCEEDED']);
    if (provider === 'adyen') {
      const calls = hops.to('/refunds').filter((e) => JSON.parse(e.request).reference === first.body.refundId);
      expect(calls.length).toBeGreaterThan(0);
      for (const e of calls) {
        expect(e.headers['idempotency-key']).toBe(first.body.refundId);
        expect(checkoutErrors(operationSchema('/payments/{paymentPspReference}/refunds'), JSON.parse(e.request))).toEqual([]);
        expect(checkoutErrors(operationSchema('/payments/{paymentPspReference}/refunds', '201'), JSON.parse(e.answer))).toEqual([]);
      }
      const hooks = hops.delivered.filter((e) => e.request.includes(first.body.refundId));
      expect(hooks.length).toBeGreaterThan(0);
      for (const h of hooks) expect(webhookErrors(JSON.parse(h.request))).toEqual([]);
    }
  });

  it('20 partial refunds racing on one payment never pass what was captured', async () => {
    const id = await sale(100);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refund(id, { amount: 7 })));
    const taken = answers.filter((a) => a.status === 201);
    expect(taken.length).toBe(14); // 14 × 7 = 98; a 15th would be 105
    for (const a of answers.filter((x) => x.status !== 201)) expect(a.body.error).toBe('refund_exceeds_refundable');
    const [b] = await c.t.sql(`SELECT refunded_cents::int AS refunded, cap_cents::int AS cap FROM refund_balances WHERE payment_id = $1`, [
      id,
    ]);
    expect(b).toEqual({ refunded: 9800, cap: 10000 });
    const [n] = await c.t.sql(`SELECT count(*)::int AS n, sum(amount_cents)::int AS s FROM refunds WHERE payment_id = $1`, [id]);
    expect(n).toEqual({ n: 14, s: 9800 });
  });

  it('a refund of a pre-authorization releases it (a void of the whole amount); a partial one is refused', async () => {
    const id = await sale(50, 'PREAUTH');
    const part = await refund(id, { amount: 10 });
    expect(part.status).toBe(400);
    expect(part.body.details[0]).toMatchObject({ field: 'amount', code: 'partial_void' });
    const whole = await refund(id, {});
    expect(whole.status).toBe(201);
    expect(whole.body).toMatchObject({ method: 'void', status: 'SUCCEEDED', amount: 50 });
    expect((await payment(id)).status).toBe('VOIDED');
    expect((await refund(id, {})).status).toBe(409);
  });

  it("the sandbox's test amounts: …13 fails, …14 fails later, …15 is reversed; each gives its amount back", async () => {
    const id = await sale(100);
    const failing = await refund(id, { amount: 10.13 });
    const failed = await settled(failing.body.refundId, 'FAILED');
    expect(failed).toMatchObject({ failureCode: 'refund_declined' });
    const later = await refund(id, { amount: 10.14 });
    const failedLater = await settled(later.body.refundId, 'FAILED');
    expect(failedLater).toMatchObject({ failureCode: 'refund_failed_later', succeededAt: expect.any(String) });
    expect(await refundEvents(later.body.refundId)).toEqual(['PENDING', 'SUCCEEDED', 'FAILED']);
    const reversing = await refund(id, { amount: 10.15 });
    await settled(reversing.body.refundId, 'REVERSED');
    expect(await payment(id)).toMatchObject({ refundedAmount: 0, refundableAmount: 100 });
  });

  it('Idempotency-Key: the same request again answers the same refund, and money goes back once', async () => {
    const id = await sale(30);
    const key = randomUUID();
    const a = await refund(id, { amount: 5 }, { 'Idempotency-Key': key });
    const b = await refund(id, { amount: 5 }, { 'Idempotency-Key': key });
    expect(b.body.refundId).toBe(a.body.refundId);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect((await c.t.sql(`SELECT count(*)::int AS n FROM refunds WHERE payment_id = $1`, [id]))[0].n).toBe(1);
  });

  it('a duplicate or out-of-order refund notification changes nothing twice', async () => {
    const id = await sale(20);
    const r = await refund(id, { amount: 20 });
    await settled(r.body.refundId, 'SUCCEEDED');
    const events = c.t.app.get(AcquirerEvents);
    const note = (status: 'SUCCEEDED' | 'REVERSED') => ({
      eventId: randomUUID(),
      type: 'card_refund.updated' as const,
      occurredAt: new Date().toISOString(),
      data: { transactionId: r.body.refundId, merchantId: '', acquirerId: 'x', acquirerTransactionId: 'y', status, amountCents: 2000 },
    });
    await events.dispatch(note('SUCCEEDED'));
    await events.dispatch(note('REVERSED'));
    await events.dispatch(note('SUCCEEDED')); // late: REVERSED stays
    await events.dispatch(note('REVERSED'));
    expect(await refundEvents(r.body.refundId)).toEqual(['PENDING', 'SUCCEEDED', 'REVERSED']);
    expect(await payment(id)).toMatchObject({ refundedAmount: 0, refundableAmount: 20 });
  });

  it('validates the request and scopes refunds by tenant', async () => {
    const id = await sale(10);
    expect((await refund(id, { reason: 'because' })).body.error).toBe('validation_error');
    expect((await refund(id, { amount: -1 })).status).toBe(400);
    expect((await refund(randomUUID(), {})).body.error).toBe('payment_not_found');
    expect((await api(c, 'GET', `/v1/acquiring/refunds/${randomUUID()}`)).body.error).toBe('refund_not_found');
    expect((await api(c, 'GET', `/v1/acquiring/refunds/not-a-uuid`)).status).toBe(404);
  });
});

describe('a refund whose answer is lost (ACQUIRER_PROVIDER=adyen)', () => {
  const edge = onCardEdge('adyen', { ACQUIRER_RETRY_DELAYS_MS: '10' });

  it('is sent again with the same key by the job and refunds once', async () => {
    const { c, hops } = edge;
    const paymentId = await edge.pay(25);
    // The sandbox refunds and notifies at once; its REFUND webhook is held until the answer is lost,
    // or it could settle the refund before the POST answers.
    let release!: () => void;
    hops.hooks.gate = new Promise<void>((r) => (release = r));
    hops.checkout.onAnswer = (e) =>
      e.path.endsWith('/refunds')
        ? { status: 502, body: { status: 502, errorCode: '000', message: 'lost', errorType: 'internal' } }
        : undefined;
    let r;
    try {
      r = await api(c, 'POST', `/v1/acquiring/payments/${paymentId}/refunds`, { amount: 25, reason: 'duplicate' });
    } finally {
      hops.checkout.onAnswer = null;
      hops.hooks.gate = null;
      release();
    }
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('PENDING');
    await resendNow(c.t, r.body.refundId); // its job, 30 s after the request
    const done = await until(async () => {
      const x = await api(c, 'GET', `/v1/acquiring/refunds/${r.body.refundId}`);
      return x.body.status === 'SUCCEEDED' ? x.body : null;
    }, 15000);
    expect(done.providerReference).toMatch(/^[0-9A-Z]{16}$/);
    const sends = hops.to('/refunds').filter((e) => JSON.parse(e.request).reference === r.body.refundId);
    expect(sends.length).toBeGreaterThan(1);
    expect(new Set(sends.map((e) => e.headers['idempotency-key']))).toEqual(new Set([r.body.refundId]));
    expect(new Set(sends.map((e) => JSON.parse(e.answer).pspReference)).size).toBe(1); // one refund at Adyen
  });
});
