import { http } from '../support/test-app';
import { api, CardsApp } from '../cards/support';
import { until } from '../provider/adyen-support';
import { onCardEdge } from './support';

/**
 * Chargebacks played by the sandbox acquirer on the test clock, on both card edges: the dispute
 * is built from the stages, holds the disputed amount from what can be refunded, and is released
 * when won; the tenant reads it and gets `acquiring.dispute` at each stage.
 */
describe.each(['generic', 'adyen'] as const)('card disputes (ACQUIRER_PROVIDER=%s)', (provider) => {
  const edge = onCardEdge(provider);
  const sale = (amount: number) => edge.pay(amount);
  let c: CardsApp;
  beforeAll(() => {
    c = edge.c;
  });

  const play = async (paymentId: string, sequence: string) => {
    const r = await http(c.t.sandboxUrl, 'POST', '/sandbox/acquirer/disputes', { paymentReference: paymentId, sequence });
    expect(r.status).toBe(201);
  };
  const disputeOf = (paymentId: string, status: string) =>
    until(async () => {
      const r = await api(c, 'GET', `/v1/acquiring/disputes?paymentId=${paymentId}`);
      return r.body.items?.[0]?.status === status ? r.body.items[0] : null;
    }, 20000);
  const payment = async (id: string) => (await api(c, 'GET', `/v1/acquiring/payments/${id}`)).body;

  it('a chargeback lost holds what was still refundable; a refund cannot return it again', async () => {
    const id = await sale(80);
    const r = await api(c, 'POST', `/v1/acquiring/payments/${id}/refunds`, { amount: 20, reason: 'requested_by_customer' });
    await until(async () => (await api(c, 'GET', `/v1/acquiring/refunds/${r.body.refundId}`)).body.status === 'SUCCEEDED', 15000);
    await play(id, 'chargeback_lost');
    const lost = await disputeOf(id, 'LOST');
    expect(lost).toMatchObject({
      paymentId: id,
      amount: 60,
      heldAmount: 60,
      currency: 'BRL',
      stage: 'DISPUTE_DEFENSE_PERIOD_ENDED',
      reasonCode: '10.4',
      defendBy: expect.any(String),
    });
    expect(lost.stages.map((s: any) => s.stage)).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED']);
    expect(await payment(id)).toMatchObject({ refundedAmount: 20, disputedAmount: 60, refundableAmount: 0 });
    const again = await api(c, 'POST', `/v1/acquiring/payments/${id}/refunds`, { amount: 0.01, reason: 'requested_by_customer' });
    expect(again.status).toBe(422);
    const one = await api(c, 'GET', `/v1/acquiring/disputes/${lost.disputeId}`);
    expect(one.body).toEqual(lost);
    const events = await c.t.sql(
      `SELECT data->>'stage' AS stage FROM webhook_events WHERE type = 'acquiring.dispute' AND id_tx = $1 ORDER BY created_at, id`,
      [lost.disputeId],
    );
    expect(events.map((e) => e.stage)).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED']);
  });

  it('a chargeback won gives the amount back to what can be refunded', async () => {
    const id = await sale(30);
    await play(id, 'chargeback_won');
    const won = await disputeOf(id, 'WON');
    expect(won).toMatchObject({ heldAmount: 0, stage: 'CHARGEBACK_REVERSED' });
    expect(await payment(id)).toMatchObject({ refundedAmount: 0, refundableAmount: 30 });
    expect((await api(c, 'GET', '/v1/acquiring/disputes/00000000-0000-4000-8000-000000000000')).body.error).toBe('dispute_not_found');
  });
});
