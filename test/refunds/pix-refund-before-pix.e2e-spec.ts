import { eventually } from '../support/tenant-auth';
import { http } from '../support/test-app';
import { detail } from '../links/support';
import { boletoWithPixQr, PixApiLinksApp, startPixApiLinksApp } from '../links/pix-api-app';
import { resendNow } from './support';

/**
 * A boleto paid by its Pix QR is PAID_PIX as soon as the acquirer says so; the PSP's callback of
 * that Pix (its endToEndId, which a devolução names) travels apart and may come later. Here the
 * callback is held back and the charges' own check is slowed to an hour, so the refund is asked
 * while the Pix is unknown: it is taken (201 PENDING, the amount reserved), nothing is sent to
 * the PSP, and the refund's job (which looks every 10 s while the Pix is unknown, no attempt counted)
 * sends the devolução once the callback has arrived.
 */
describe('a refund of a boleto paid by Pix, asked before the PSP reported the Pix', () => {
  let h: PixApiLinksApp;

  beforeAll(async () => {
    h = await startPixApiLinksApp({ PIX_API_CHARGES_CHECK_MS: '3600000' });
  });
  afterAll(() => h?.close());

  it('is PENDING with nothing sent, then refunded by devolução once the Pix is known', async () => {
    const { t, a, recorder } = h;
    const { l, paymentId, txid } = await boletoWithPixQr(t, a.auth, 80, 3);
    h.dropCallbacks = true;
    const held = h.callbacks.length;
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/pix/${txid}/pay`)).status).toBe(200);
    await eventually(
      async () => (await t.sql(`SELECT status FROM links_payments WHERE id = $1`, [paymentId]))[0]?.status === 'PAID_PIX',
      10_000,
    );
    await eventually(async () => h.callbacks.length > held, 10_000);
    const known = `SELECT 1 FROM pix_api_charges c JOIN pix_api_pix_received p ON p.txid = c.txid AND p.applied_at IS NOT NULL WHERE c.transaction_id = $1`;
    expect(await t.sql(known, [paymentId])).toEqual([]);

    const refundsPath = `/v1/acquiring/links/${l.linkId}/payments/${paymentId}/refunds`;
    const back = await http(t.url, 'POST', refundsPath, { reason: 'product_returned', amount: 30 }, a.auth);
    expect(back.status).toBe(201);
    expect(back.body).toMatchObject({ rail: 'pix', status: 'PENDING', amount: 30 });
    const item = async () => (await detail(t, a.auth, l.linkId)).payments.find((p: any) => p.id === paymentId);
    expect(await item()).toMatchObject({ refundedAmount: 30, refundableAmount: 50 });
    const over = await http(t.url, 'POST', refundsPath, { reason: 'other', amount: 50.01 }, a.auth);
    expect([over.status, over.body.error]).toEqual([422, 'refund_exceeds_refundable']);
    // its job while the Pix is still unknown sends nothing, and is due again soon: not a failure, no attempt counted
    await resendNow(t, back.body.refundId);
    expect(recorder.seen.filter((x) => x.method === 'PUT' && x.path.includes('/devolucao/'))).toEqual([]);
    const getRefund = async () => (await http(t.url, 'GET', `/v1/acquiring/refunds/${back.body.refundId}`, undefined, a.auth)).body;
    expect(await getRefund()).toMatchObject({ status: 'PENDING' });
    expect(
      await t.sql(`SELECT status, attempts, last_error, run_at > now() AS later FROM jobs WHERE key = $1`, [back.body.refundId]),
    ).toEqual([{ status: 'pending', attempts: 0, last_error: 'the Pix to give back is not known yet', later: true }]);

    // the callback arrives (sent again, as a PSP does)
    h.dropCallbacks = false;
    for (const c of h.callbacks.slice(held)) {
      const sent = await http(t.url, 'POST', `/provider/pix-api${c.path.replace(/^\/hook/, '')}`, JSON.stringify(c.body), {
        'content-type': 'application/json',
      });
      expect(sent.status).toBeLessThan(300);
    }
    await eventually(async () => (await t.sql(known, [paymentId])).length === 1, 15_000);
    await resendNow(t, back.body.refundId);
    const [{ e2e }] = await t.sql(
      `SELECT p.end_to_end_id AS e2e FROM pix_api_charges c JOIN pix_api_pix_received p ON p.txid = c.txid WHERE c.transaction_id = $1`,
      [paymentId],
    );
    const puts = () =>
      recorder.seen.filter((x) => x.method === 'PUT' && x.path === `/pix/${e2e}/devolucao/${back.body.refundId.replace(/-/g, '')}`);
    await eventually(async () => puts().length > 0, 15_000);
    await eventually(async () => (await getRefund()).status === 'SUCCEEDED', 15_000);
    expect(puts()).toHaveLength(1);
    expect(await item()).toMatchObject({ refundedAmount: 30, refundableAmount: 50 });
    expect(recorder.violations()).toEqual([]);
  });
});
