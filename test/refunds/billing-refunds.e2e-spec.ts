/**
 * Refunds of Pix Automático billings over API Pix (BANK_PROVIDER=pix-api), against the sandbox PSP
 * over mutual TLS on the real PostgreSQL and HTTP, with the test clock: a billing paid by its cobr
 * (the PAGA attempt's Pix, read back with GET /pix/{e2eid}) refunded by devolução in parts and in
 * full, a third part refused over its valor, NAO_REALIZADO, a MED_PIX_AUTOMATICO devolução as a
 * MED case that lowers what can be refunded, a billing not paid and another recurrence's route.
 * Every exchange with the PSP and every Pix callback is checked against API Pix 2.9.0.
 */
import { PspPixCallbacks } from '../../sandbox/src/psp/psp-pix.callbacks';
import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { recordExchanges, validateCallback } from '../support/pix-api-contract';
import { eventually, onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, TestApp } from '../support/test-app';
import { advance, day, recurrenceBody, settled, startPixApp } from '../pix-automatic/support';

describe('Pix refunds of Pix Automático billings over API Pix', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  let recorder: ReturnType<typeof recordExchanges>;
  const pixCallbacks: unknown[] = [];

  jest.setTimeout(180_000);

  /** A recurrence created over the tenant API and authorized by the payer at the sandbox PSP. */
  async function authorized(amount: number, dueInDays: number) {
    const r = await http(
      t.url,
      'POST',
      '/v1/banking/pix/automatic/recurrences',
      recurrenceBody(t, { amount, firstDueDate: day(t, dueInDays), dayAdjustment: 'KEEP_DUE_DATE' }),
      a.auth,
    );
    expect(r.status).toBe(200);
    const [{ id_rec: idRec }] = await t.sql(`SELECT id_rec FROM pix_recurrences WHERE id = $1`, [r.body.recurrenceId]);
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/bank/authorize/${idRec}`, { decision: 'approve' })).status).toBe(200);
    await settled(t);
    return r.body.recurrenceId as string;
  }

  const billingsOf = async (rid: string) =>
    (await http(t.url, 'GET', `/v1/banking/pix/automatic/recurrences/${rid}/billings`, undefined, a.auth)).body.items as any[];
  const refundsPath = (rid: string, bid: string) => `/v1/banking/pix/automatic/recurrences/${rid}/billings/${bid}/refunds`;
  const refund = (rid: string, bid: string, body: Record<string, unknown>, key?: string) =>
    http(
      t.url,
      'POST',
      refundsPath(rid, bid),
      { reason: 'requested_by_customer', ...body },
      { ...a.auth, ...(key ? { 'idempotency-key': key } : {}) },
    );
  const getRefund = async (id: string) => (await http(t.url, 'GET', `/v1/acquiring/refunds/${id}`, undefined, a.auth)).body;
  const settledAs = async (id: string, status: string) => {
    await eventually(async () => (await getRefund(id)).status === status, 15_000);
    return getRefund(id);
  };
  const e2eOf = async (idTx: string) =>
    (await t.sql(`SELECT end_to_end_id FROM sandbox_psp_pix WHERE txid = $1 AND origin = 'cobr'`, [idTx]))[0]?.end_to_end_id as string;

  const paid: Record<string, { rid: string; billing: any; e2e: string }> = {};
  let unpaidRid: string;

  beforeAll(async () => {
    t = await startPixApp({
      env: {
        BANK_PROVIDER: 'pix-api',
        PIX_API_RECONCILE_INTERVAL_MS: '0',
        PIX_API_CHARGES_CHECK_MS: '200',
        SANDBOX_ACQUIRER_TICK_MS: '100',
      },
    });
    recorder = recordExchanges(t.sandbox.get(SandboxPspServer));
    const sender = t.sandbox.get(PspPixCallbacks) as unknown as { post: (url: string, body: unknown) => Promise<string | null> };
    const post = sender.post.bind(sender);
    sender.post = (url, body) => {
      pixCallbacks.push(body);
      return post(url, body);
    };
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
    await eventually(async () => (await t.sql(`SELECT 1 FROM sandbox_psp_pix_webhooks`)).length > 0, 10_000);

    // Three billings paid on their due date (the cobr's PAGA attempt), one recurrence whose billing is not due yet.
    const rids = { parts: await authorized(25, 12), notDone: await authorized(30, 12), med: await authorized(40, 12) };
    unpaidRid = await authorized(9, 13); // sent (ACTIVE), due the day after
    for (let i = 0; i < 12; i++) {
      await advance(t, 1);
      await settled(t);
    }
    for (const [k, rid] of Object.entries(rids)) {
      const [billing] = await billingsOf(rid);
      expect(billing.status).toBe('COMPLETED');
      paid[k] = { rid, billing, e2e: await e2eOf(billing.idTx) };
      expect(paid[k].e2e).toMatch(/^E/);
    }
  });
  afterAll(async () => {
    recorder?.stop();
    await t?.close();
  });

  it("the paid cobr's Pix is read back (GET /pix/{e2eid}) and the billing shows all of it refundable", async () => {
    const { e2e, billing } = paid.parts;
    expect(recorder.seen.some((x) => x.method === 'GET' && x.path === `/pix/${e2e}`)).toBe(true);
    expect(await t.sql(`SELECT txid, amount_cents::int AS cents FROM pix_api_pix_received WHERE end_to_end_id = $1`, [e2e])).toEqual([
      { txid: billing.idTx, cents: 2500 },
    ]);
    expect(billing).toMatchObject({ amount: 25, refundedAmount: 0, disputedAmount: 0, refundableAmount: 25 });
    expect((await billingsOf(unpaidRid))[0]).toMatchObject({ status: 'ACTIVE', refundedAmount: 0, refundableAmount: 0 });
  });

  it('a billing refunded in part and then in full (DEVOLVIDO by the callback), a retry answering the same refund, a third part refused', async () => {
    const { rid, billing, e2e } = paid.parts;
    const first = await refund(rid, billing.id, { amount: 10 }, 'billing-refund-1');
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ paymentId: billing.id, paymentKind: 'billing', rail: 'pix', amount: 10, status: 'PENDING' });
    expect((await refund(rid, billing.id, { amount: 10 }, 'billing-refund-1')).body.refundId).toBe(first.body.refundId);
    const put = recorder.seen.find(
      (x) => x.method === 'PUT' && x.path === `/pix/${e2e}/devolucao/${first.body.refundId.replace(/-/g, '')}`,
    );
    expect(put?.request).toEqual({ valor: '10.00', natureza: 'ORIGINAL', descricao: 'Devolução a pedido do pagador' });
    await settledAs(first.body.refundId, 'SUCCEEDED');

    const rest = await refund(rid, billing.id, {});
    expect(rest.body).toMatchObject({ amount: 15, status: 'PENDING' });
    await settledAs(rest.body.refundId, 'SUCCEEDED');
    const over = await refund(rid, billing.id, { amount: 0.01 });
    expect([over.status, over.body.error]).toEqual([422, 'refund_exceeds_refundable']);
    expect(await t.sql(`SELECT count(*)::int AS n FROM sandbox_psp_devolucoes WHERE end_to_end_id = $1`, [e2e])).toEqual([{ n: 2 }]);

    expect((await billingsOf(rid))[0]).toMatchObject({ status: 'COMPLETED', refundedAmount: 25, refundableAmount: 0 });
    const ofBilling = await http(t.url, 'GET', refundsPath(rid, billing.id), undefined, a.auth);
    expect(ofBilling.body.items.map((r: any) => r.amount).sort()).toEqual([10, 15]);
    const ofRecurrence = await http(t.url, 'GET', `/v1/banking/pix/automatic/recurrences/${rid}/refunds`, undefined, a.auth);
    expect(ofRecurrence.body.total).toBe(2);
    expect(ofRecurrence.body.items.every((r: any) => r.paymentId === billing.id)).toBe(true);
  });

  it('NAO_REALIZADO: the refund FAILED devolucao_nao_realizada with the PSP motivo, its amount refundable again', async () => {
    const { rid, billing } = paid.notDone;
    const r = await refund(rid, billing.id, { amount: 10.13 });
    expect(r.status).toBe(201);
    const failed = await settledAs(r.body.refundId, 'FAILED');
    expect(failed).toMatchObject({ failureCode: 'devolucao_nao_realizada', failureReason: 'Conta do pagador encerrada' });
    expect((await billingsOf(rid))[0]).toMatchObject({ refundedAmount: 0, refundableAmount: 30 });
  });

  it("a MED_PIX_AUTOMATICO devolução on the billing's Pix is a MED case that lowers what can be refunded", async () => {
    const { rid, billing, e2e } = paid.med;
    const med = await http(t.sandboxUrl, 'POST', `/sandbox/psp/pix/${e2e}/med`, { valor: '15.00', natureza: 'MED_PIX_AUTOMATICO' });
    expect(med.status).toBe(201);
    let cases: any;
    await eventually(async () => {
      cases = (await http(t.url, 'GET', `/v1/acquiring/med-cases?paymentId=${billing.id}`, undefined, a.auth)).body;
      return cases.items?.length === 1;
    }, 15_000);
    expect(cases.items[0]).toMatchObject({
      paymentId: billing.id,
      paymentKind: 'billing',
      endToEndId: e2e,
      natureza: 'MED_PIX_AUTOMATICO',
      amount: 15,
      status: 'DEVOLVIDO',
    });
    expect((await billingsOf(rid))[0]).toMatchObject({ refundedAmount: 0, disputedAmount: 15, refundableAmount: 25 });
    const over = await refund(rid, billing.id, { amount: 25.01 });
    expect([over.status, over.body.error]).toEqual([422, 'refund_exceeds_refundable']);
    const rest = await refund(rid, billing.id, {});
    expect(rest.body).toMatchObject({ amount: 25, status: 'PENDING' });
    await settledAs(rest.body.refundId, 'SUCCEEDED');
    expect((await billingsOf(rid))[0]).toMatchObject({ refundedAmount: 25, disputedAmount: 15, refundableAmount: 0 });
  });

  it('a billing not paid is not refundable; a billing under another recurrence is 404', async () => {
    const [unpaid] = await billingsOf(unpaidRid);
    const r = await refund(unpaidRid, unpaid.id, {});
    expect([r.status, r.body.error]).toEqual([409, 'payment_not_refundable']);
    const wrong = await refund(unpaidRid, paid.notDone.billing.id, {});
    expect([wrong.status, wrong.body.error]).toEqual([404, 'payment_not_found']);
  });

  it('every exchange with the PSP and every Pix callback conforms to API Pix 2.9.0', () => {
    expect(recorder.seen.filter((x) => x.template === '/pix/{e2eid}/devolucao/{id}').length).toBeGreaterThanOrEqual(4);
    expect(recorder.seen.some((x) => x.template === '/pix/{e2eid}')).toBe(true);
    expect(recorder.violations()).toEqual([]);
    expect(pixCallbacks.length).toBeGreaterThan(0);
    for (const c of pixCallbacks) expect(validateCallback('pix', c)).toEqual({ valid: true, errors: [] });
  });
});
