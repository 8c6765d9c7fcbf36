import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { createLink, pay, PAYER } from '../links/support';

/**
 * A boleto paid by bank clearing has no network refund: its refund records the payer's Pix key,
 * stays PENDING while the tenant pays the payer out (here with the sandbox PSP's payout), and is
 * completed by the tenant's confirmation with the payout's end-to-end id, or given up.
 */
describe('refunds of boletos paid by bank clearing (payouts)', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  beforeAll(async () => {
    t = await startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10' } });
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
  });
  afterAll(() => t.close());

  const paidBoleto = async (amount: number) => {
    const l = await createLink(t, a.auth, { amount, paymentMethods: ['BOLETO'] });
    const slip = await pay(t, l.slug, { method: 'BOLETO', payer: PAYER() });
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${slip.body.boleto.boletoId}/pay`, {})).body.status).toBe('PAID');
    const item = (await http(t.url, 'GET', `/v1/acquiring/links/${l.linkId}`, undefined, a.auth)).body.payments[0];
    expect(item).toMatchObject({ status: 'PAID', refundableAmount: amount });
    return { linkId: l.linkId, paymentId: item.id as string };
  };
  const refund = (p: { linkId: string; paymentId: string }, body: Record<string, unknown>) =>
    http(t.url, 'POST', `/v1/acquiring/links/${p.linkId}/payments/${p.paymentId}/refunds`, { reason: 'product_returned', ...body }, a.auth);

  it('is recorded with the payee, waits for the payout, and is completed by its confirmation', async () => {
    const p = await paidBoleto(80);
    const bare = await refund(p, {});
    expect(bare.status).toBe(400);
    expect(bare.body.details[0]).toMatchObject({ field: 'payout', code: 'payout_required' });
    const r = await refund(p, { amount: 30, payout: { pixKey: 'ana@example.com', holderName: 'Ana Souza' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      rail: 'payout',
      status: 'PENDING',
      amount: 30,
      payout: { pixKey: 'ana@example.com', holderName: 'Ana Souza' },
    });
    // the tenant pays the payer out (the sandbox PSP plays it), then confirms with the payout's end-to-end id
    const payout = await http(t.sandboxUrl, 'POST', '/sandbox/psp/payouts', { valor: '30.00', chave: 'ana@example.com' });
    expect(payout.status).toBe(201);
    const e2e = payout.body.endToEndId as string;
    expect(
      (await http(t.url, 'POST', `/v1/acquiring/refunds/${r.body.refundId}/payout-confirmation`, { endToEndId: 'not-an-id' }, a.auth))
        .status,
    ).toBe(400);
    const done = await http(t.url, 'POST', `/v1/acquiring/refunds/${r.body.refundId}/payout-confirmation`, { endToEndId: e2e }, a.auth);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'SUCCEEDED', providerReference: e2e, payout: { endToEndId: e2e } });
    const again = await http(t.url, 'POST', `/v1/acquiring/refunds/${r.body.refundId}/payout-confirmation`, { endToEndId: e2e }, a.auth);
    expect(again).toMatchObject({ status: 409, body: { error: 'invalid_refund_status' } });
    const events = await t.sql(
      `SELECT data->>'status' AS s FROM webhook_events WHERE type = 'acquiring.refund' AND id_tx = $1 ORDER BY created_at, id`,
      [r.body.refundId],
    );
    expect(events.map((e) => e.s)).toEqual(['PENDING', 'SUCCEEDED']);
    const item = (await http(t.url, 'GET', `/v1/acquiring/links/${p.linkId}`, undefined, a.auth)).body.payments[0];
    expect(item).toMatchObject({ refundedAmount: 30, refundableAmount: 50 });
  });

  it('a payout given up fails the refund and frees its amount', async () => {
    const p = await paidBoleto(20);
    const r = await refund(p, { payout: { pixKey: '52998224725' } });
    expect(r.body).toMatchObject({ amount: 20, status: 'PENDING' });
    expect((await refund(p, { amount: 0.01, payout: { pixKey: '52998224725' } })).body.error).toBe('refund_exceeds_refundable');
    const gone = await http(t.url, 'POST', `/v1/acquiring/refunds/${r.body.refundId}/payout-cancellation`, {}, a.auth);
    expect(gone.body).toMatchObject({ status: 'FAILED', failureCode: 'payout_cancelled' });
    const item = (await http(t.url, 'GET', `/v1/acquiring/links/${p.linkId}`, undefined, a.auth)).body.payments[0];
    expect(item).toMatchObject({ refundedAmount: 0, refundableAmount: 20 });
    // a card or Pix refund is not settled by the tenant
    expect((await http(t.url, 'POST', `/v1/acquiring/refunds/${r.body.refundId}/payout-cancellation`, {}, a.auth)).status).toBe(409);
  });
});
