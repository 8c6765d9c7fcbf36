import { RefundRails } from '../../src/refunds/use-cases/refund-rails';
import { resendNow } from './support';
import { validateCallback } from '../support/pix-api-contract';
import { eventually, OnboardedTenant } from '../support/tenant-auth';
import { http, TestApp } from '../support/test-app';
import { createLink, detail, pay, PAYER } from '../links/support';
import { boletoWithPixQr, PixApiLinksApp, startPixApiLinksApp } from '../links/pix-api-app';

/**
 * Refunds of Pix received on links over API Pix (BANK_PROVIDER=pix-api), against the sandbox PSP
 * over mutual TLS on the real PostgreSQL and HTTP: devoluções (`PUT /pix/{e2eid}/devolucao/{id}`)
 * followed to DEVOLVIDO or NAO_REALIZADO by the PSP's callbacks (read back with GET /pix/{e2eid})
 * or by a lookup (GET …/devolucao/{id}); the 90-day window; an idempotent re-send; a MED
 * devolução as a MED case that lowers what can be refunded; the link's totals. Every exchange with
 * the PSP and every callback is checked against API Pix 2.9.0.
 */
describe('Pix refunds of link payments over API Pix', () => {
  let h: PixApiLinksApp;
  let t: TestApp;
  let a: OnboardedTenant;
  let recorder: PixApiLinksApp['recorder'];
  let hooks: any[];
  let callbacks: PixApiLinksApp['callbacks'];

  beforeAll(async () => {
    h = await startPixApiLinksApp();
    ({ t, a, recorder, hooks, callbacks } = h);
  });
  afterAll(() => h?.close());

  const refundsPath = (l: any, paymentId: string) => `/v1/acquiring/links/${l.linkId}/payments/${paymentId}/refunds`;
  const refund = (l: any, paymentId: string, body: Record<string, unknown>, key?: string) =>
    http(
      t.url,
      'POST',
      refundsPath(l, paymentId),
      { reason: 'requested_by_customer', ...body },
      {
        ...a.auth,
        ...(key ? { 'idempotency-key': key } : {}),
      },
    );
  const getRefund = async (id: string) => (await http(t.url, 'GET', `/v1/acquiring/refunds/${id}`, undefined, a.auth)).body;
  const settledAs = async (id: string, status: string) => {
    await eventually(async () => (await getRefund(id)).status === status, 15_000);
    return getRefund(id);
  };
  const itemOf = async (l: any, paymentId: string) => (await detail(t, a.auth, l.linkId)).payments.find((p: any) => p.id === paymentId);

  /** A link of `amount` paid by Pix in the sandbox bank app, SETTLED from the PSP's callback: the link, the payment id and the Pix's endToEndId. */
  async function paidByPix(amount: number) {
    const l = await createLink(t, a.auth, { amount, paymentMethods: ['PIX'] });
    const r = await pay(t, l.slug, { method: 'PIX', payer: PAYER(1) });
    expect(r.status).toBe(201);
    const paymentId: string = r.body.paymentId;
    const open = await fetch(`${t.sandboxUrl}/sandbox/bank-app?code=${encodeURIComponent(r.body.pix.brCode)}`, { redirect: 'manual' });
    const txid = open.headers.get('location')!.split('/').pop()!;
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/pix/${txid}/pay`)).status).toBe(200);
    await eventually(
      async () => (await t.sql(`SELECT status FROM links_payments WHERE id = $1`, [paymentId]))[0]?.status === 'SETTLED',
      10_000,
    );
    const [{ end_to_end_id: e2e }] = await t.sql(`SELECT end_to_end_id FROM sandbox_psp_pix WHERE txid = $1`, [
      paymentId.replace(/-/g, ''),
    ]);
    return { l, paymentId, e2e: e2e as string };
  }

  it('a Pix refunded in two parts (DEVOLVIDO by the callback), a retry answering the same refund, a third part refused over the amount', async () => {
    const { l, paymentId, e2e } = await paidByPix(25);
    expect(await itemOf(l, paymentId)).toMatchObject({ refundedAmount: 0, refundableAmount: 25 });

    const first = await refund(l, paymentId, { amount: 10, description: 'pedido 1' }, 'pix-refund-1');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ paymentId, paymentKind: 'link_payment', rail: 'pix', amount: 10, status: 'PENDING' });
    const again = await refund(l, paymentId, { amount: 10, description: 'pedido 1' }, 'pix-refund-1');
    expect(again.body.refundId).toBe(first.body.refundId);

    const put = recorder.seen.find((x) => x.method === 'PUT' && x.template === '/pix/{e2eid}/devolucao/{id}');
    expect(put?.path).toBe(`/pix/${e2e}/devolucao/${first.body.refundId.replace(/-/g, '')}`);
    expect(put?.request).toEqual({ valor: '10.00', natureza: 'ORIGINAL', descricao: 'Devolução a pedido do pagador' });

    const done = await settledAs(first.body.refundId, 'SUCCEEDED');
    expect(done.providerReference).toMatch(/^D99999999/);
    const second = await refund(l, paymentId, { amount: 15 });
    expect(second.status).toBe(201);
    await settledAs(second.body.refundId, 'SUCCEEDED');

    const over = await refund(l, paymentId, { amount: 0.01 });
    expect([over.status, over.body.error]).toEqual([422, 'refund_exceeds_refundable']);
    expect(await t.sql(`SELECT count(*)::int AS n FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1`, [e2e])).toEqual([{ n: 2 }]);

    expect(await itemOf(l, paymentId)).toMatchObject({ refundedAmount: 25, refundableAmount: 0, disputedAmount: 0 });
    expect(await detail(t, a.auth, l.linkId)).toMatchObject({ totalPaid: 0, totalRefunded: 25, paidCount: 1 });
    const ofLink = await http(t.url, 'GET', `/v1/acquiring/links/${l.linkId}/refunds`, undefined, a.auth);
    expect(ofLink.body.items.map((r: any) => r.amount).sort()).toEqual([10, 15]);
    const all = await http(t.url, 'GET', `/v1/acquiring/refunds?paymentId=${paymentId}`, undefined, a.auth);
    expect(all.body.items).toHaveLength(2);
    await eventually(async () => hooks.filter((h) => h.type === 'acquiring.refund' && h.data.paymentId === paymentId).length >= 4, 10_000);
    expect(
      hooks
        .filter((h) => h.type === 'acquiring.refund' && h.data.refundId === first.body.refundId)
        .map((h) => h.data.status)
        .sort(),
    ).toEqual(['PENDING', 'SUCCEEDED']);
  });

  it('NAO_REALIZADO: the refund FAILED devolucao_nao_realizada with the PSP motivo, its amount refundable again', async () => {
    const { l, paymentId } = await paidByPix(30);
    const r = await refund(l, paymentId, { amount: 10.13 });
    expect(r.status).toBe(201);
    const failed = await settledAs(r.body.refundId, 'FAILED');
    expect(failed).toMatchObject({ failureCode: 'devolucao_nao_realizada', failureReason: 'Conta do pagador encerrada' });
    expect(await itemOf(l, paymentId)).toMatchObject({ refundedAmount: 0, refundableAmount: 30 });
  });

  it('a devolução whose callbacks are lost is looked up (GET …/devolucao/{id}); a lost answer re-sent with the same {id} makes one devolução', async () => {
    const { l, paymentId, e2e } = await paidByPix(20);
    h.dropCallbacks = true;
    try {
      const r = await refund(l, paymentId, { amount: 5.16 });
      expect(r.body.status).toBe('PENDING');
      // the answer "lost": its job sends the same PUT again, the PSP answers the same devolução
      await t.sql(`UPDATE refunds SET provider_reference = NULL WHERE id = $1`, [r.body.refundId]);
      await resendNow(t, r.body.refundId);
      expect(await t.sql(`SELECT count(*)::int AS n FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1`, [e2e])).toEqual([{ n: 1 }]);
      await eventually(
        async () => (await t.sql(`SELECT status FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1`, [e2e]))[0]?.status === 'DEVOLVIDO',
        15_000,
      );
      // No callback came. The charges' own check reads the cob (its Pix with its devoluções) and may
      // settle it first (then its job ends with nothing to do); a job that finds the refund still
      // pending looks the devolução up (GET …/devolucao/{id}).
      const seenBefore = recorder.seen.length;
      const looked = jest.spyOn(t.app.get(RefundRails), 'resend');
      try {
        await resendNow(t, r.body.refundId);
      } finally {
        looked.mockRestore();
      }
      if (looked.mock.calls.length > 0)
        expect(
          recorder.seen
            .slice(seenBefore)
            .some((x) => x.method === 'GET' && x.path === `/pix/${e2e}/devolucao/${r.body.refundId.replace(/-/g, '')}`),
        ).toBe(true);
      await eventually(async () => (await getRefund(r.body.refundId)).status === 'SUCCEEDED', 15_000);
      expect(await t.sql(`SELECT count(*)::int AS n FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1`, [e2e])).toEqual([{ n: 1 }]);
    } finally {
      h.dropCallbacks = false;
    }
  });

  it('90 days after the Pix settled: 422 refund_window_closed and nothing is sent', async () => {
    const { l, paymentId, e2e } = await paidByPix(12);
    await t.sql(`UPDATE pix_api_pix_received SET horario = horario - interval '91 days' WHERE end_to_end_id = $1`, [e2e]);
    const before = recorder.seen.length;
    const r = await refund(l, paymentId, { amount: 1 });
    expect([r.status, r.body.error]).toEqual([422, 'refund_window_closed']);
    expect(recorder.seen.slice(before).filter((x) => x.method === 'PUT')).toEqual([]);
    expect(await t.sql(`SELECT count(*)::int AS n FROM refunds WHERE payment_id = $1`, [paymentId])).toEqual([{ n: 0 }]);
  });

  it('a MED devolução is a MED case against the Pix: shown, sent as acquiring.med_case, and it lowers what can be refunded', async () => {
    const { l, paymentId, e2e } = await paidByPix(40);
    const med = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, {
      valor: '15.00',
      natureza: 'MED_FRAUDE',
      descricao: 'Golpe',
    });
    expect(med.status).toBe(201);
    let cases: any;
    await eventually(async () => {
      cases = (await http(t.url, 'GET', `/v1/acquiring/med-cases?paymentId=${paymentId}`, undefined, a.auth)).body;
      return cases.items?.length === 1;
    }, 15_000);
    expect(cases.items[0]).toMatchObject({
      paymentId,
      paymentKind: 'link_payment',
      endToEndId: e2e,
      natureza: 'MED_FRAUDE',
      amount: 15,
      status: 'DEVOLVIDO',
      descricao: 'Golpe',
    });
    const one = await http(t.url, 'GET', `/v1/acquiring/med-cases/${cases.items[0].medCaseId}`, undefined, a.auth);
    expect(one.body.devolucaoId).toBe(med.body.id);
    expect(await itemOf(l, paymentId)).toMatchObject({ refundedAmount: 0, disputedAmount: 15, refundableAmount: 25 });
    expect(await detail(t, a.auth, l.linkId)).toMatchObject({ totalPaid: 25, totalDisputed: 15 });
    await eventually(async () => hooks.some((h) => h.type === 'acquiring.med_case' && h.data.paymentId === paymentId), 10_000);

    const over = await refund(l, paymentId, { amount: 25.01 });
    expect([over.status, over.body.error]).toEqual([422, 'refund_exceeds_refundable']);
    const rest = await refund(l, paymentId, {});
    expect(rest.body).toMatchObject({ amount: 25, status: 'PENDING' });
    await settledAs(rest.body.refundId, 'SUCCEEDED');
    // the callback of the same Pix, posted again with both devoluções, changes the MED case nothing
    const [{ n }] = await t.sql(`SELECT count(*)::int AS n FROM med_cases WHERE payment_id = $1`, [paymentId]);
    expect(n).toBe(1);
  });

  it('a boleto paid by its Pix QR (PAID_PIX) is refunded by devolução of that Pix', async () => {
    const { l, paymentId, txid } = await boletoWithPixQr(t, a.auth, 80, 2);
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/pix/${txid}/pay`)).status).toBe(200);
    await eventually(
      async () => (await t.sql(`SELECT status FROM links_payments WHERE id = $1`, [paymentId]))[0]?.status === 'PAID_PIX',
      10_000,
    );
    expect(await itemOf(l, paymentId)).toMatchObject({ refundableAmount: 80 });
    // the acquirer's PAID_PIX and the PSP's callback of that Pix (its endToEndId, what a devolução
    // names) travel apart: the refund waits for the Pix itself
    await eventually(
      async () =>
        (
          await t.sql(
            `SELECT 1 FROM pix_api_charges c JOIN pix_api_pix_received p ON p.txid = c.txid AND p.applied_at IS NOT NULL WHERE c.transaction_id = $1`,
            [paymentId],
          )
        ).length === 1,
      10_000,
    );
    const back = await refund(l, paymentId, { amount: 30, reason: 'product_returned' });
    expect(back.body).toMatchObject({ rail: 'pix', status: 'PENDING' });
    await settledAs(back.body.refundId, 'SUCCEEDED');
    expect(await itemOf(l, paymentId)).toMatchObject({ refundedAmount: 30, refundableAmount: 50 });
  });

  it('a card link payment and a Pix not yet paid are not refundable; another link is 404', async () => {
    const { l, paymentId } = await paidByPix(9);
    const other = await createLink(t, a.auth, { amount: 9, paymentMethods: ['PIX'] });
    const wrong = await http(t.url, 'POST', refundsPath(other, paymentId), { reason: 'other' }, a.auth);
    expect([wrong.status, wrong.body.error]).toEqual([404, 'payment_not_found']);
    const unpaid = await pay(t, l.slug, { method: 'PIX', payer: PAYER(2) });
    const r = await http(t.url, 'POST', refundsPath(l, unpaid.body.paymentId), { reason: 'other' }, a.auth);
    expect([r.status, r.body.error]).toEqual([409, 'payment_not_refundable']);
  });

  it('every exchange with the PSP and every callback conforms to API Pix 2.9.0', () => {
    expect(recorder.seen.filter((x) => x.template === '/pix/{e2eid}/devolucao/{id}').length).toBeGreaterThan(4);
    expect(recorder.violations()).toEqual([]);
    expect(callbacks.some((c) => c.body.pix?.some((p: any) => p.devolucoes?.length))).toBe(true);
    for (const c of callbacks) expect(validateCallback('pix', c.body)).toEqual({ valid: true, errors: [] });
  });
});
