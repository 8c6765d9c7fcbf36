import { http } from '../support/test-app';
import { api } from '../cards/support';
import { CARD, createLink, detail, pay, PAYER } from '../links/support';
import { until } from '../provider/adyen-support';
import { onCardEdge } from './support';

/**
 * A link's card payment refunded at the acquirer, on both card edges: the payer gets back all they
 * paid (the passed-on fee included), each merchant of the split gives back its part in proportion,
 * and the platform's fee is kept or returned as REFUND_PLATFORM_FEE says.
 */
describe.each([
  ['generic', 'keep'],
  ['adyen', 'return'],
] as const)('link card refunds (ACQUIRER_PROVIDER=%s, REFUND_PLATFORM_FEE=%s)', (provider, fee) => {
  const edge = onCardEdge(provider, { REFUND_PLATFORM_FEE: fee, CHECKOUT_RATE_LIMIT_PER_MINUTE: '100000' });

  it('refunds in two parts up to what the payer paid, reversing the split in proportion', async () => {
    const { c } = edge;
    const merchants = (await api(c, 'GET', '/v1/acquiring/merchants')).body.items;
    const l = await createLink(c.t, c.tenant.auth, {
      minAmount: 10,
      maxAmount: 1000,
      passFee: true,
      splits: [
        { merchantId: merchants[0].merchantId, percentage: 66.67 },
        { merchantId: merchants[1].merchantId, percentage: 33.33 },
      ],
    });
    const paid = await pay(c.t, l.slug, { method: 'CARD', amount: 99.99, payer: PAYER(), card: CARD() });
    expect(paid.body).toMatchObject({ status: 'ACCEPTED', amount: 103.08 });
    const item = (await detail(c.t, c.tenant.auth, l.linkId)).payments[0];
    expect(item).toMatchObject({ amount: 103.08, fee: 3.09, netAmount: 99.99, refundedAmount: 0, refundableAmount: 103.08 });
    const path = `/v1/acquiring/links/${l.linkId}/payments/${item.id}/refunds`;

    const first = await api(c, 'POST', path, { amount: 51.54, reason: 'product_returned' });
    expect(first.status).toBe(201);
    const part = first.body.splitReversal;
    const feeBack = fee === 'return' ? 1.54 : 0; // floor(309 × 5154 / 10308) = 154
    expect(part.platformFee).toBe(feeBack);
    expect(part.merchants.map((m: any) => m.merchantId)).toEqual([merchants[0].merchantId, merchants[1].merchantId]);
    const borne = Math.round((51.54 - feeBack) * 100);
    const cents = part.merchants.map((m: any) => Math.round(m.amount * 100));
    expect(cents[0] + cents[1]).toBe(borne);
    expect(Math.abs(cents[0] - (borne * 6667) / 9999)).toBeLessThan(1); // the owner's 66.67 of 99.99, to the cent
    await until(async () => (await api(c, 'GET', `/v1/acquiring/refunds/${first.body.refundId}`)).body.status === 'SUCCEEDED', 15000);

    const rest = await api(c, 'POST', path, { reason: 'product_returned' });
    expect(rest.body.amount).toBe(51.54);
    await until(async () => (await api(c, 'GET', `/v1/acquiring/refunds/${rest.body.refundId}`)).body.status === 'SUCCEEDED', 15000);
    expect((await api(c, 'POST', path, { amount: 0.01, reason: 'other' })).body.error).toBe('refund_exceeds_refundable');
    const after = await detail(c.t, c.tenant.auth, l.linkId);
    expect(after.payments[0]).toMatchObject({ refundedAmount: 103.08, refundableAmount: 0 });
    expect(after).toMatchObject({ totalRefunded: 103.08, totalPaid: 0 });
    const listed = await api(c, 'GET', `/v1/acquiring/links/${l.linkId}/refunds`);
    expect(listed.body.items.map((r: any) => r.amount)).toEqual([51.54, 51.54]);
    // another link's path does not reach it
    const other = await createLink(c.t, c.tenant.auth, { amount: 10 });
    expect(
      (await http(c.t.url, 'POST', `/v1/acquiring/links/${other.linkId}/payments/${item.id}/refunds`, { reason: 'other' }, c.tenant.auth))
        .status,
    ).toBe(404);
  });

  it("a chargeback on a link's card payment holds what can be refunded", async () => {
    const { c } = edge;
    const l = await createLink(c.t, c.tenant.auth, { amount: 40 });
    expect((await pay(c.t, l.slug, { method: 'CARD', payer: PAYER(2), card: CARD() })).body.status).toBe('ACCEPTED');
    const item = (await detail(c.t, c.tenant.auth, l.linkId)).payments[0];
    expect(
      (await http(c.t.sandboxUrl, 'POST', '/sandbox/acquirer/disputes', { paymentReference: item.id, sequence: 'chargeback_lost' })).status,
    ).toBe(201);
    const lost = await until(async () => {
      const r = await api(c, 'GET', `/v1/acquiring/disputes?paymentId=${item.id}`);
      return r.body.items?.[0]?.status === 'LOST' ? r.body.items[0] : null;
    }, 20000);
    expect(lost).toMatchObject({ paymentId: item.id, heldAmount: item.amount });
    const after = await detail(c.t, c.tenant.auth, l.linkId);
    expect(after.payments[0]).toMatchObject({ disputedAmount: item.amount, refundableAmount: 0 });
  });

  it("a Pix received over the bank edge's own protocol (BANK_PROVIDER=service) is refused with what to do", async () => {
    const { c } = edge;
    const l = await createLink(c.t, c.tenant.auth, { amount: 25, paymentMethods: ['PIX'] });
    const pix = await pay(c.t, l.slug, { method: 'PIX', payer: PAYER(3) });
    expect((await http(c.t.sandboxUrl, 'POST', `/sandbox/pix/${pix.body.pix.txid}/pay`)).status).toBe(200);
    const item = await until(async () => {
      const p = (await detail(c.t, c.tenant.auth, l.linkId)).payments[0];
      return ['AUTHORIZED', 'SETTLED'].includes(p?.status) ? p : null;
    }, 15000);
    const r = await api(c, 'POST', `/v1/acquiring/links/${l.linkId}/payments/${item.id}/refunds`, { reason: 'other' });
    expect([r.status, r.body.error]).toEqual([409, 'payment_not_refundable']);
    expect(r.body.message).toMatch(/BANK_PROVIDER=pix-api/);
    expect(r.body.message).not.toMatch(/Nothing to refund/);
    expect(await c.t.sql(`SELECT count(*)::int AS n FROM refunds WHERE payment_id = $1`, [item.id])).toEqual([{ n: 0 }]);
  });
});
