import { randomUUID } from 'node:crypto';
import { lineToBarcode } from '../../kernel/common/formats/boleto';
import { AcquirerPort } from '../../src/provider/acquirer.port';
import { AdyenNotifications } from '../../src/provider/acquirer/adyen/adyen-notifications';
import { Clock } from '../../kernel/platform/clock/clock';
import { advanceDays, createLink, pay, PAYER } from '../links/support';
import { checkoutErrors, webhookErrors } from '../support/adyen-contract';
import {
  ADYEN_API_KEY as API_KEY,
  ADYEN_HMAC_KEY as HMAC_KEY,
  ADYEN_WEBHOOK_AUTH as AUTH,
  ADYEN_WEBHOOK_PASSWORD as WEBHOOK_PASSWORD,
  AdyenHops,
  until,
} from './adyen-support';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';

/**
 * Boleto bancário on Adyen Checkout v72 (ACQUIRER_PROVIDER=adyen), end to end over real HTTP:
 * a payment link paid by boleto through the hosted checkout is issued by the sandbox's Adyen
 * face (`boletobancario`, answered `PresentToShopper` with a voucher), and paying it at the
 * sandbox bank reaches links as Adyen's AUTHORISATION webhook. Every request, answer and webhook
 * is validated against Adyen's own OpenAPI files.
 */
describe('boleto bancário on Adyen Checkout v72 (sandbox Adyen face)', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  const hops = new AdyenHops();
  const { sent, delivered } = hops;

  beforeAll(async () => {
    const adyen = await hops.start();
    t = await startTestApp({
      env: {
        ...adyen,
        ACQUIRER_RETRY_DELAYS_MS: '20,20',
        SANDBOX_ACQUIRER_TICK_MS: '60000',
        LINKS_TICK_MS: '60000',
        LOG_LEVEL: 'info',
      },
    });
    hops.aim(t);
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
  });
  afterAll(async () => {
    await t.close();
    await hops.close();
  });

  const itemStatus = async (id: string) => (await t.sql(`SELECT status FROM links_payments WHERE id = $1`, [id]))[0]?.status;
  const sentFor = (reference: string) => sent.filter((e) => e.path.endsWith('/payments') && JSON.parse(e.request).reference === reference);
  const hooksFor = (psp: string) =>
    delivered.filter((d) => JSON.parse(d.request).notificationItems.some((n: any) => n.NotificationRequestItem.pspReference === psp));

  it('a link paid by boleto gets a digitable line, barcode and download link from Adyen; paying it at the bank makes it PAID through the AUTHORISATION webhook, once', async () => {
    const l = await createLink(t, a.auth, { amount: 250.5, paymentMethods: ['BOLETO'] });
    const r = await pay(t, l.slug, { method: 'BOLETO', payer: { ...PAYER(1), name: 'Ana Maria Souza' } });
    expect(r.status).toBe(201);
    const slip = r.body;
    expect(slip).toMatchObject({
      status: 'PENDING',
      pending: true,
      boleto: {
        boletoId: expect.stringMatching(/^[0-9A-F]{16}$/),
        digitableLine: expect.stringMatching(/^\d{47}$/),
        downloadUrl: expect.stringMatching(/\/sandbox\/boletos\/bol_[0-9a-f]+$/),
      },
    });
    const [item] = await t.sql(`SELECT instrument, acquirer_id FROM links_payments WHERE id = $1`, [slip.paymentId]);
    expect(item.acquirer_id).toBe(slip.boleto.boletoId);
    expect(item.instrument.barcode).toBe(lineToBarcode(slip.boleto.digitableLine));
    expect(item.instrument.pixBrCode).toBeUndefined(); // Adyen's boletos carry no Pix QR
    expect(slip.boleto.dueDate).toBe(item.instrument.dueDate);
    // the printable page works without a Pix QR
    const page = await http(t.url, 'GET', `/checkout/${l.slug}/payments/${slip.paymentId}/boleto`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('class="pixbox"');

    // what was sent to Adyen, and its answer, as Adyen's file says
    const [ex] = sentFor(slip.paymentId);
    const body = JSON.parse(ex.request);
    expect(ex.headers['idempotency-key']).toBe(slip.paymentId);
    expect(ex.headers['x-api-key']).toBe(API_KEY);
    expect(body).toMatchObject({
      merchantAccount: 'PagamentosBR',
      reference: slip.paymentId,
      amount: { currency: 'BRL', value: 25050 },
      paymentMethod: { type: 'boletobancario' },
      shopperName: { firstName: 'Ana', lastName: 'Maria Souza' },
      socialSecurityNumber: '52998224725',
      billingAddress: { country: 'BR' },
      deliverAt: `${slip.boleto.dueDate}T23:59:59-03:00`,
    });
    expect(checkoutErrors('PaymentRequest', body)).toEqual([]);
    expect(ex.status).toBe(200);
    const answer = JSON.parse(ex.answer);
    expect(checkoutErrors('PaymentResponse', answer)).toEqual([]);
    expect(answer).toMatchObject({
      resultCode: 'PresentToShopper',
      pspReference: slip.boleto.boletoId,
      action: { type: 'voucher', paymentMethodType: 'boletobancario', downloadUrl: slip.boleto.downloadUrl },
    });
    expect(answer.action.reference.replace(/\D/g, '')).toBe(slip.boleto.digitableLine);
    expect(checkoutErrors('CheckoutVoucherAction', answer.action)).toEqual([]);

    // the payer's bank pays it (the sandbox bank app knows it by its pspReference)
    const paid = await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${slip.boleto.boletoId}/pay`, {});
    expect(paid.body).toMatchObject({ kind: 'BOLETO', status: 'PAID' });
    await until(async () => (await itemStatus(slip.paymentId)) === 'PAID');
    const [hook] = hooksFor(slip.boleto.boletoId);
    expect(webhookErrors(JSON.parse(hook.request))).toEqual([]);
    expect(hook.headers.authorization).toBe(AUTH);
    expect([hook.status, hook.answer]).toEqual([200, '[accepted]']);
    expect(JSON.parse(hook.request).notificationItems[0].NotificationRequestItem).toMatchObject({
      eventCode: 'AUTHORISATION',
      success: 'true',
      merchantReference: slip.paymentId,
      merchantAccountCode: 'PagamentosBR',
      amount: { currency: 'BRL', value: 25050 },
      paymentMethod: 'boletobancario',
    });
    // Adyen's webhook, not the `service` protocol's notification
    expect(
      await t.sql(`SELECT 1 FROM sandbox_acquirer_notifications WHERE payload->'data'->>'transactionId' = $1`, [`adyen:${slip.paymentId}`]),
    ).toEqual([]);
    const counted = async () => ({
      link: (await t.sql(`SELECT paid_count, total_paid_cents FROM links WHERE id = $1`, [l.linkId]))[0],
      changes: (
        await t.sql(`SELECT count(*)::int AS n FROM links_events WHERE payment_id = $1 AND type = 'PAYMENT_STATUS_CHANGED'`, [
          slip.paymentId,
        ])
      )[0].n,
    });
    const once = await counted();
    expect(once).toEqual({ link: { paid_count: 1, total_paid_cents: '25050' }, changes: 1 });

    // Adyen delivers the same webhook again: accepted, changes nothing
    const again = await fetch(`${t.url}/provider/adyen/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: AUTH },
      body: hook.request,
    });
    expect([again.status, await again.text()]).toEqual([200, '[accepted]']);
    await t.app.get(AdyenNotifications).applyDue();
    expect(await counted()).toEqual(once);
    expect(await t.sql(`SELECT count(*)::int AS n FROM adyen_notifications WHERE psp_reference = $1`, [slip.boleto.boletoId])).toEqual([
      { n: 1 },
    ]);
    expect(await itemStatus(slip.paymentId)).toBe('PAID');
  });

  it('a retry of the same transaction gets the same boleto (Idempotency-Key), never a second one', async () => {
    const due = new Date(t.app.get(Clock).now().getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const req = {
      transactionId: randomUUID(),
      merchantId: 'mer_1',
      amountCents: 9990,
      dueDate: due,
      payer: { name: 'Bruno', taxId: '11222333000181' },
    };
    const [x, y] = await Promise.all([t.app.get(AcquirerPort).createBoleto(req), t.app.get(AcquirerPort).createBoleto(req)]);
    expect(x).toEqual(y);
    expect(x).toMatchObject({ dueDate: due, status: 'PENDING', barcode: expect.stringMatching(/^\d{44}$/) });
    expect(x.pixBrCode).toBeUndefined();
    const body = JSON.parse(sentFor(req.transactionId)[0].request);
    expect(body.shopperName).toEqual({ firstName: 'Bruno', lastName: 'Bruno' });
    expect(checkoutErrors('PaymentRequest', body)).toEqual([]);
    expect(
      await t.sql(`SELECT count(*)::int AS n FROM sandbox_acquirer_boletos WHERE merchant_reference = $1`, [req.transactionId]),
    ).toEqual([{ n: 1 }]);
  });

  it('the sandbox refuses a boleto request as Adyen does: 422 ServiceError for a missing payer, CPF, address or a currency other than BRL', async () => {
    const ok = JSON.parse(sent.find((e) => JSON.parse(e.request).paymentMethod?.type === 'boletobancario')!.request);
    const post = (body: unknown) =>
      http(t.sandboxUrl, 'POST', '/sandbox/adyen/checkout/v72/payments', body, { 'x-api-key': API_KEY, 'idempotency-key': randomUUID() });
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, shopperName: undefined }, 'shopperName'],
      [{ ...ok, socialSecurityNumber: undefined }, 'socialSecurityNumber'],
      [{ ...ok, socialSecurityNumber: '12345678900' }, 'socialSecurityNumber'],
      [{ ...ok, billingAddress: { ...ok.billingAddress, city: undefined } }, 'billingAddress.city'],
      [{ ...ok, amount: { currency: 'USD', value: 100 } }, 'currency'],
      [{ ...ok, amount: undefined }, 'amount'],
    ];
    for (const [body, about] of cases) {
      const r = await post(body);
      expect([r.status, about]).toEqual([422, about]);
      expect(r.body.message.toLowerCase()).toContain(about.split('.').pop()!.toLowerCase());
      expect(checkoutErrors('ServiceError', r.body)).toEqual([]);
    }
    const fine = await post({ ...ok, reference: randomUUID() });
    expect(fine.status).toBe(200);
  });

  it('an Adyen boleto left unpaid past its due date expires in links through OFFER_CLOSED', async () => {
    const l = await createLink(t, a.auth, { amount: 10, paymentMethods: ['BOLETO'] });
    const slip = (await pay(t, l.slug, { method: 'BOLETO', payer: PAYER(2) })).body;
    expect(slip.status).toBe('PENDING');
    const days = Math.round((Date.parse(slip.boleto.dueDate) - Date.parse(t.app.get(Clock).today())) / 86_400_000) + 1;
    await advanceDays(t, days);
    await until(async () => hooksFor(slip.boleto.boletoId).length > 0);
    const [hook] = hooksFor(slip.boleto.boletoId);
    expect(webhookErrors(JSON.parse(hook.request))).toEqual([]);
    expect(JSON.parse(hook.request).notificationItems[0].NotificationRequestItem).toMatchObject({
      eventCode: 'OFFER_CLOSED',
      success: 'true',
    });
    await until(async () => (await itemStatus(slip.paymentId)) === 'EXPIRED');
  });

  it('never writes a CPF/CNPJ, API key, HMAC key or webhook password to a log line', () => {
    const logs = t.logs();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of ['52998224725', '11222333000181', API_KEY, HMAC_KEY, WEBHOOK_PASSWORD]) expect(logs).not.toContain(secret);
  });
});
