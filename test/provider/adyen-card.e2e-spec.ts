import { randomUUID } from 'node:crypto';
import { AcquirerPort, CardAuthorizationRequest } from '../../src/provider/acquirer.port';
import { CardCharges } from '../../src/provider/acquirer/card-charges';
import { AdyenNotifications } from '../../src/provider/acquirer/adyen/adyen-notifications';
import { BreakerRegistry } from '../../kernel/platform/resilience/breaker-registry';
import { adyenHmacKey, AdyenNotificationItem, signAdyenItem } from '../../kernel/common/protocols/adyen';
import { api, CardsApp, MERCHANT, startCardsApp, tokenize } from '../cards/support';
import { checkoutErrors, operationSchema, webhookErrors } from '../support/adyen-contract';
import {
  ADYEN_API_KEY as API_KEY,
  ADYEN_HMAC_KEY as HMAC_KEY,
  ADYEN_WEBHOOK_PASSWORD as WEBHOOK_PASSWORD,
  AdyenHops,
  basic,
  until,
} from './adyen-support';
import { authenticate, authenticateBody, initialize, setup } from '../three-ds/support';
import { UNKNOWN_MERCHANT } from '../cards/support';

/**
 * The card edge on Adyen Checkout v72 (ACQUIRER_PROVIDER=adyen) against the sandbox's Adyen
 * face, over real HTTP through recording hops: every request the adapter sends and every answer
 * and webhook the sandbox gives is validated against Adyen's own OpenAPI files.
 */
describe('card edge on Adyen Checkout v72 (sandbox Adyen face)', () => {
  let c: CardsApp;
  const hops = new AdyenHops();
  const { checkout, sent, delivered } = hops;

  beforeAll(async () => {
    c = await startCardsApp(await hops.start());
    hops.aim(c.t);
  });
  afterAll(async () => {
    await c.close();
    await hops.close();
  });

  const port = () => c.t.app.get(AcquirerPort);
  const req = (pan: string, over: Partial<CardAuthorizationRequest> = {}): CardAuthorizationRequest => ({
    transactionId: `pay_${randomUUID()}`,
    merchantId: MERCHANT,
    amountCents: 12345,
    installments: 1,
    capture: 'SALE',
    card: { pan, expMonth: 3, expYear: 2030, cvv: '737' },
    ...over,
  });
  const exchangesTo = (suffix: string) => hops.to(suffix);

  it('charges a card through the tenant API: POST /payments with the card, centavos in BRL, installments, our id as reference and Idempotency-Key', async () => {
    const tok = await tokenize(c, { cardNumber: '5555555555554444' });
    const pay = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 150.75,
      installments: 3,
      tokenData: { slugToken: tok.slugToken },
      documentId: MERCHANT,
    });
    expect(pay.status).toBe(201);
    expect(pay.body).toMatchObject({
      status: 'ACCEPTED',
      amount: 150.75,
      installments: 3,
      authorizationCode: expect.stringMatching(/^\d{6}$/),
    });
    const ex = exchangesTo('/payments').find((e) => JSON.parse(e.request).reference === pay.body.paymentId)!;
    const body = JSON.parse(ex.request);
    expect(ex.headers['idempotency-key']).toBe(pay.body.paymentId);
    expect(ex.headers['x-api-key']).toBe(API_KEY);
    expect(body).toMatchObject({
      merchantAccount: 'PagamentosBR',
      amount: { currency: 'BRL', value: 15075 },
      installments: { value: 3 },
      paymentMethod: { type: 'scheme', number: '5555555555554444', expiryMonth: '12', expiryYear: '2031', cvc: '123' },
      captureDelayHours: 0,
    });
    expect(checkoutErrors(operationSchema('/payments'), body)).toEqual([]);
    expect(ex.status).toBe(200);
    expect(checkoutErrors(operationSchema('/payments', '200'), JSON.parse(ex.answer))).toEqual([]);
    expect(JSON.parse(ex.answer)).toMatchObject({ resultCode: 'Authorised', pspReference: expect.stringMatching(/^[0-9A-F]{16}$/) });
  });

  it('pre-authorizes with manualCapture, captures part of it and voids a sale; /captures and /cancels follow the file', async () => {
    const tok = await tokenize(c, { cardNumber: '4111111111111111' });
    const pre = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 200,
      captureMode: 'PREAUTH',
      tokenData: { slugToken: tok.slugToken },
      documentId: MERCHANT,
    });
    expect(pre.body).toMatchObject({ status: 'PREAUTH' });
    const sentPre = JSON.parse(exchangesTo('/payments').find((e) => JSON.parse(e.request).reference === pre.body.paymentId)!.request);
    expect(sentPre.additionalData).toEqual({ manualCapture: 'true' });
    const cap = await api(c, 'POST', `/v1/acquiring/payments/${pre.body.paymentId}/capture`, { amount: 150 });
    expect(cap.status).toBeLessThan(300);
    const capEx = exchangesTo('/captures').pop()!;
    expect(JSON.parse(capEx.request)).toMatchObject({ merchantAccount: 'PagamentosBR', amount: { currency: 'BRL', value: 15000 } });
    expect(checkoutErrors(operationSchema('/payments/{paymentPspReference}/captures'), JSON.parse(capEx.request))).toEqual([]);
    expect(capEx.status).toBe(201);
    expect(checkoutErrors(operationSchema('/payments/{paymentPspReference}/captures', '201'), JSON.parse(capEx.answer))).toEqual([]);
    const rows = await c.t.sql(`SELECT status, captured_cents FROM sandbox_acquirer_card_transactions WHERE merchant_reference = $1`, [
      pre.body.paymentId,
    ]);
    expect(rows).toEqual([{ status: 'CAPTURED', captured_cents: '15000' }]);

    const sale = await port().authorizeCard(req('4111111111111111'));
    await expect(port().void(sale.acquirerTransactionId)).resolves.toEqual({ status: 'VOIDED' });
    const cancelEx = exchangesTo('/cancels').pop()!;
    expect(checkoutErrors(operationSchema('/payments/{paymentPspReference}/cancels'), JSON.parse(cancelEx.request))).toEqual([]);
    expect(checkoutErrors(operationSchema('/payments/{paymentPspReference}/cancels', '201'), JSON.parse(cancelEx.answer))).toEqual([]);
  });

  it("answers the sandbox's test cards and Adyen's holder-name triggers as the spec's statuses and card codes", async () => {
    await expect(port().authorizeCard(req('4000000000009995'))).resolves.toMatchObject({
      status: 'AUTH_REJECTED',
      reason: 'insufficient_funds',
    });
    await expect(port().authorizeCard(req('4000000000000002'))).resolves.toMatchObject({
      status: 'AUTH_REJECTED',
      reason: 'generic_decline',
    });
    await expect(port().authorizeCard(req('4000000000000119'))).resolves.toMatchObject({ status: 'FAILED', reason: 'processing_error' });
    await expect(port().authorizeCard(req('4111111111111112'))).resolves.toMatchObject({ status: 'AUTH_REJECTED', reason: 'invalid_card' });
    const holder = (name: string) =>
      req('4111111111111111', { card: { pan: '4111111111111111', expMonth: 3, expYear: 2030, cvv: '737', holderName: name } });
    await expect(port().authorizeCard(holder('NOT_ENOUGH_BALANCE'))).resolves.toMatchObject({
      status: 'AUTH_REJECTED',
      reason: 'insufficient_funds',
    });
    await expect(port().authorizeCard(holder('CARD_EXPIRED'))).resolves.toMatchObject({ status: 'AUTH_REJECTED', reason: 'expired_card' });
    await expect(port().authorizeCard(holder('DECLINED'))).resolves.toMatchObject({ status: 'AUTH_REJECTED', reason: 'generic_decline' });
    await expect(port().authorizeCard(holder('ISSUER_UNAVAILABLE'))).resolves.toMatchObject({
      status: 'FAILED',
      reason: 'acquirer_unavailable',
    });
    const refused = exchangesTo('/payments').filter((e) => JSON.parse(e.answer).resultCode === 'Refused');
    expect(refused.length).toBeGreaterThan(3);
    for (const e of refused) expect(checkoutErrors('PaymentResponse', JSON.parse(e.answer))).toEqual([]);
  });

  it('a retry with the same Idempotency-Key answers the first authorization, never a second charge', async () => {
    const r = req('4242424242424242');
    const [a, b] = await Promise.all([port().authorizeCard(r), port().authorizeCard(r)]);
    expect(a).toEqual(b);
    const rows = await c.t.sql(`SELECT count(*)::int AS n FROM sandbox_acquirer_card_transactions WHERE merchant_reference = $1`, [
      r.transactionId,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it("receives the sandbox's AUTHORISATION and CAPTURE webhooks (valid against Webhooks-v1), answers [accepted] and applies each once", async () => {
    const r = req('5555555555554444', { capture: 'PREAUTH' });
    const pre = await port().authorizeCard(r);
    await port().capture(pre.acquirerTransactionId, 1000);
    const events = await until(async () => {
      const rows = await c.t.sql(
        `SELECT event_code, success, applied_at IS NOT NULL AS applied FROM adyen_notifications
         WHERE merchant_reference = $1 OR original_reference = $2 ORDER BY event_code`,
        [r.transactionId, pre.acquirerTransactionId],
      );
      return rows.length === 2 && rows.every((x: any) => x.applied) ? rows : null;
    });
    // The sandbox sends the two webhooks independently, so either may be stored first: the set is asserted, not the order.
    expect(events.map((e: any) => [e.event_code, e.success])).toEqual([
      ['AUTHORISATION', true],
      ['CAPTURE', true],
    ]);
    expect(delivered.length).toBeGreaterThan(0);
    // A delivery the service cannot take at once (503 with Retry-After: once, under the full suite
    // on Node 20 and the embedded PostgreSQL, its database was too busy) is sent again, as Adyen
    // does; any other answer than [accepted] or that 503 is a defect.
    for (const d of delivered) {
      expect(webhookErrors(JSON.parse(d.request))).toEqual([]);
      expect(d.headers.authorization).toBe(basic('adyen-webhooks', WEBHOOK_PASSWORD));
      expect(d.status === 503 ? [503, JSON.parse(d.answer).error] : [d.status, d.answer]).toEqual(
        d.status === 503 ? [503, 'database_unavailable'] : [200, '[accepted]'],
      );
    }
    // and each of this payment's two notifications was accepted
    const accepted = delivered
      .filter((d) => d.status === 200)
      .flatMap((d) => JSON.parse(d.request).notificationItems.map((w: any) => w.NotificationRequestItem))
      .filter((i: any) => i.merchantReference === r.transactionId || i.originalReference === pre.acquirerTransactionId)
      .map((i: any) => i.eventCode);
    expect([...new Set(accepted)].sort()).toEqual(['AUTHORISATION', 'CAPTURE']);
    // the reconciliation of a lost answer reads the AUTHORISATION webhook, never authorizes again
    const before = exchangesTo('/payments').length;
    await expect(port().findCardAuthorization(r.transactionId)).resolves.toEqual({
      acquirerTransactionId: pre.acquirerTransactionId,
      status: 'PREAUTH',
      // the webhook's additionalData.authCode: a payment reconciled still shows its authorization code
      authorizationCode: expect.stringMatching(/^\d{6}$/),
    });
    await expect(c.t.app.get(CardCharges).reconcile(`pay_${randomUUID()}`)).resolves.toBeNull();
    expect(exchangesTo('/payments').length).toBe(before);
  });

  it('refuses a webhook with a bad HMAC or bad Basic credentials (401, nothing kept); a duplicate delivery is kept once', async () => {
    const item: AdyenNotificationItem = {
      pspReference: 'ZZ11223344556677',
      merchantAccountCode: 'PagamentosBR',
      merchantReference: 'pay_DUPLICATEDUPLICATE0000',
      eventCode: 'CHARGEBACK',
      eventDate: '2026-11-26T10:00:00+00:00',
      success: 'true',
      amount: { currency: 'BRL', value: 5000 },
      additionalData: {},
    };
    const signed = { ...item, additionalData: { hmacSignature: signAdyenItem(adyenHmacKey(HMAC_KEY), item) } };
    const post = (body: unknown, auth = basic('adyen-webhooks', WEBHOOK_PASSWORD)) =>
      fetch(`${c.t.url}/provider/adyen/webhooks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: auth },
        body: JSON.stringify(body),
      });
    const wrap = (i: unknown) => ({ live: 'false', notificationItems: [{ NotificationRequestItem: i }] });
    const tampered = { ...signed, amount: { currency: 'BRL', value: 1 } };
    const bad = await post(wrap(tampered));
    expect(bad.status).toBe(401);
    expect((await bad.json()).error).toBe('adyen_webhook_unauthorized');
    expect((await post(wrap(signed), basic('adyen-webhooks', 'wrong'))).status).toBe(401);
    expect(await c.t.sql(`SELECT 1 FROM adyen_notifications WHERE psp_reference = $1`, [item.pspReference])).toEqual([]);
    const ok1 = await post(wrap(signed));
    const ok2 = await post(wrap(signed));
    expect([ok1.status, await ok1.text(), ok2.status, await ok2.text()]).toEqual([200, '[accepted]', 200, '[accepted]']);
    // the job kicked by the receiver may hold the row: wait for it to be applied, by it or by this pass
    await c.t.app.get(AdyenNotifications).applyDue();
    const kept = await until(async () => {
      const rows = await c.t.sql(`SELECT event_code, applied_at IS NOT NULL AS applied FROM adyen_notifications WHERE psp_reference = $1`, [
        item.pspReference,
      ]);
      return rows.every((r: any) => r.applied) ? rows : null;
    });
    expect(kept).toEqual([{ event_code: 'CHARGEBACK', applied: true }]);
    expect(c.t.logs()).toContain('Adyen reported an event that needs attention');
  });

  it("a CANCELLATION success for a payment held as pre-authorized (its cancel answer lost) voids it here too, in the service's words", async () => {
    const tok = await tokenize(c, { cardNumber: '4111111111111111' });
    const pre = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 30,
      captureMode: 'PREAUTH',
      tokenData: { slugToken: tok.slugToken },
      documentId: MERCHANT,
    });
    expect(pre.body).toMatchObject({ status: 'PREAUTH' });
    const [{ psp }] = await c.t.sql(`SELECT acquirer_transaction_id AS psp FROM card_payments WHERE id = $1`, [pre.body.paymentId]);
    const item: AdyenNotificationItem = {
      pspReference: 'CANCEL0000000001',
      originalReference: psp,
      merchantAccountCode: 'PagamentosBR',
      merchantReference: pre.body.paymentId,
      eventCode: 'CANCELLATION',
      eventDate: new Date().toISOString(),
      success: 'true',
      amount: { currency: 'BRL', value: 3000 },
      additionalData: {},
    };
    const signed = { ...item, additionalData: { hmacSignature: signAdyenItem(adyenHmacKey(HMAC_KEY), item) } };
    const r = await fetch(`${c.t.url}/provider/adyen/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic('adyen-webhooks', WEBHOOK_PASSWORD) },
      body: JSON.stringify({ live: 'false', notificationItems: [{ NotificationRequestItem: signed }] }),
    });
    expect([r.status, await r.text()]).toEqual([200, '[accepted]']);
    const voided = await until(async () => {
      const g = await api(c, 'GET', `/v1/acquiring/payments/${pre.body.paymentId}`);
      return g.body.status === 'VOIDED' ? g.body : null;
    });
    expect(voided).toMatchObject({ status: 'VOIDED' });
  });

  it("an Adyen 4xx is the acquirer's answer: not retried, the breaker stays closed, the attempt fails as acquirer_rejected", async () => {
    const calls = checkout.calls;
    checkout.rule = (r) =>
      r.url?.endsWith('/payments')
        ? { status: 422, body: { status: 422, errorCode: '101', message: 'Invalid card number', errorType: 'validation' } }
        : null;
    try {
      for (let i = 0; i < 12; i++) {
        await expect(c.t.app.get(CardCharges).authorize(req('4111111111111111'))).resolves.toMatchObject({
          status: 'FAILED',
          reason: 'acquirer_rejected',
        });
      }
    } finally {
      checkout.rule = null;
    }
    expect(checkout.calls - calls).toBe(12);
    // a refused capture answers the spec's 500 acquirer_rejected with Adyen's code in details, the payment unchanged
    const tok = await tokenize(c, { cardNumber: '4111111111111111' });
    const pre = await api(c, 'POST', '/v1/acquiring/payments', {
      amount: 30,
      captureMode: 'PREAUTH',
      tokenData: { slugToken: tok.slugToken },
    });
    checkout.rule = (r) =>
      r.url?.endsWith('/captures')
        ? {
            status: 422,
            body: { status: 422, errorCode: '167', message: 'Original pspReference required for this operation', errorType: 'validation' },
          }
        : null;
    try {
      const cap = await api(c, 'POST', `/v1/acquiring/payments/${pre.body.paymentId}/capture`, {});
      expect([cap.status, cap.body.error, cap.body.details]).toEqual([
        500,
        'acquirer_rejected',
        [{ field: 'acquirer', code: '167', message: 'the acquirer refused with code 167 (validation)' }],
      ]);
    } finally {
      checkout.rule = null;
    }
    expect((await api(c, 'GET', `/v1/acquiring/payments/${pre.body.paymentId}`)).body.status).toBe('PREAUTH');
    expect(c.t.app.get(BreakerRegistry).states()['acquirer.authorizeCard']).toBe('closed');
    await expect(port().authorizeCard(req('4111111111111111'))).resolves.toMatchObject({ status: 'ACCEPTED' });
  });

  it('runs the 3DS steps on native 3DS2: authentication-only /payments, then /payments/details, all valid against the file', async () => {
    const start = sent.length;
    const token = await initialize(c, 150.75);
    const s = await setup(c, { token, cardNumber: '4000000000002503' });
    expect(s.status).toBe(200);
    const auth = await authenticate(c, authenticateBody(token, s.body.referenceId, { cardNumber: '4000000000002503' }));
    expect(auth.body).toMatchObject({
      status: 'CHALLENGE',
      transStatus: 'C',
      challengeUrl: expect.stringContaining('/sandbox/three-ds/challenge/'),
    });
    const frictionless = await initialize(c, 150.75);
    const s2 = await setup(c, { token: frictionless, cardNumber: '4000000000002701' });
    const a2 = await authenticate(c, authenticateBody(frictionless, s2.body.referenceId, { cardNumber: '4000000000002701' }));
    expect(a2.body).toMatchObject({ status: 'FRICTIONLESS', transStatus: 'Y', eci: '05', cavv: expect.any(String) });
    const ours = sent.slice(start);
    const starts = ours.filter((e) => e.path.endsWith('/payments'));
    const details = ours.filter((e) => e.path.endsWith('/payments/details'));
    expect([starts.length, details.length]).toEqual([2, 2]);
    for (const e of starts) {
      const body = JSON.parse(e.request);
      expect(body).toMatchObject({ authenticationData: { authenticationOnly: true }, amount: { currency: 'BRL', value: 15075 } });
      expect(checkoutErrors(operationSchema('/payments'), body)).toEqual([]);
      expect(JSON.parse(e.answer)).toMatchObject({ resultCode: 'IdentifyShopper', action: { type: 'threeDS2', subtype: 'fingerprint' } });
      expect(checkoutErrors(operationSchema('/payments', '200'), JSON.parse(e.answer))).toEqual([]);
    }
    for (const e of details) {
      expect(checkoutErrors(operationSchema('/payments/details'), JSON.parse(e.request))).toEqual([]);
      expect(checkoutErrors(operationSchema('/payments/details', '200'), JSON.parse(e.answer))).toEqual([]);
    }
    expect(details.map((e) => JSON.parse(e.answer).resultCode)).toEqual(['ChallengeShopper', 'AuthenticationFinished']);
    // Adyen's own 3DS2 test cards ask for a challenge, as Adyen documents them
    for (const pan of ['4917610000000000', '5454545454545454']) {
      const t = await initialize(c, 20);
      const st = await setup(c, { token: t, cardNumber: pan });
      const a = await authenticate(
        c,
        authenticateBody(t, st.body.referenceId, {
          cardNumber: pan,
          orderInformation: { amountDetails: { totalAmount: '20.00', currency: 'BRL' } },
        }),
      );
      expect(a.body).toMatchObject({ status: 'CHALLENGE', transStatus: 'C' });
    }
    // an unknown merchant is Adyen's 403, the spec's merchant_not_found
    const unknown = await initialize(c, 10, UNKNOWN_MERCHANT);
    const refused = await setup(c, { token: unknown, cardNumber: '4000000000002701' });
    expect([refused.status, refused.body.error]).toEqual([403, 'merchant_not_found']);
  });

  it('retries a webhook the receiver did not answer [accepted], until it does', async () => {
    hops.hooks.mode = 'down';
    const r = req('4111111111111111');
    try {
      await port().authorizeCard(r);
      const [refused] = await until(() =>
        c.t
          .sql(
            `SELECT attempts, last_error FROM sandbox_adyen_webhooks
             WHERE item->>'merchantReference' = $1 AND delivered_at IS NULL AND last_error IS NOT NULL`,
            [r.transactionId],
          )
          .then((rows) => (rows.length ? rows : null)),
      );
      expect(refused.last_error).toMatch(/answered 503 without \[accepted\]/);
      expect(await c.t.sql(`SELECT 1 FROM adyen_notifications WHERE merchant_reference = $1`, [r.transactionId])).toEqual([]);
    } finally {
      hops.hooks.mode = 'up';
    }
    // the next attempt (backoff 1 s, 2 s, …) is accepted and the verdict is kept, once. The receiver
    // keeps the notification before it answers, and the sandbox marks the webhook delivered after
    // the answer, so the wait is for the sandbox's mark, never the receiver's row alone.
    const row = await until(async () => {
      const [w] = await c.t.sql(
        `SELECT attempts, delivered_at IS NOT NULL AS delivered FROM sandbox_adyen_webhooks WHERE item->>'merchantReference' = $1`,
        [r.transactionId],
      );
      return w?.delivered ? w : null;
    }, 15000);
    expect(row.attempts).toBeGreaterThan(1);
    expect(await c.t.sql(`SELECT 1 FROM adyen_notifications WHERE merchant_reference = $1`, [r.transactionId])).toHaveLength(1);
  });

  it('never writes a card number, security code, API key, HMAC key or webhook password to a log line or a metric', async () => {
    const logs = c.t.logs();
    expect(logs.length).toBeGreaterThan(0);
    const metrics = await (await fetch(`${c.t.url}/metrics`)).text();
    expect(metrics).toContain('acquirer');
    for (const secret of ['5555555555554444', '4111111111111111', '"737"', '"123"', API_KEY, HMAC_KEY, WEBHOOK_PASSWORD]) {
      expect(logs).not.toContain(secret);
      expect(metrics).not.toContain(secret);
    }
  });
});
