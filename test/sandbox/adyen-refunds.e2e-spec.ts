import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { AdyenNotificationItem } from '../../kernel/common/protocols/adyen';
import { SandboxCardCasesTicker } from '../../sandbox/src/acquirer/sandbox-card-cases.ticker';
import { checkoutErrors, operationSchema, webhookErrors } from '../support/adyen-contract';
import { http, startTestApp, TestApp } from '../support/test-app';
import { ADYEN_API_KEY, AdyenHops, until } from '../provider/adyen-support';

/** The request schema Webhooks-v1 gives each event code (`webhooks./<EVENT_CODE>`). */
const WEBHOOKS = parse(readFileSync(join(__dirname, '..', 'fixtures', 'adyen', 'Webhooks-v1.yaml'), 'utf8')).webhooks;
const schemaOf = (eventCode: string): string =>
  String(WEBHOOKS[`/${eventCode}`].post.requestBody.content['application/json'].schema.$ref).split('/').pop()!;

/**
 * Refunds, reversals, the technical cancel and disputes at the sandbox's Adyen face, called as
 * Checkout v72 directly over real HTTP; every request and answer is validated against Adyen's
 * CheckoutService-v72.yaml, and every webhook it sends (recorded on the way to the service's
 * receiver) against the schema Webhooks-v1.yaml gives its event code.
 */
describe("sandbox acquirer's Adyen face: refunds and disputes", () => {
  let t: TestApp;
  const hops = new AdyenHops();
  const MERCHANT = 'PagamentosBR';

  beforeAll(async () => {
    t = await startTestApp({ env: { ...(await hops.start()), SANDBOX_ACQUIRER_TICK_MS: '60000' } });
    hops.aim(t);
  });
  afterAll(async () => {
    await t.close();
    await hops.close();
  });

  /** A Checkout call, its request and answer checked against the operation's schemas. */
  async function checkout(path: string, operation: string, body: Record<string, unknown>, idempotencyKey?: string) {
    const r = await http(t.sandboxUrl, 'POST', `/sandbox/adyen/checkout/v72${path}`, body, {
      'x-api-key': ADYEN_API_KEY,
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    });
    expect(checkoutErrors(operationSchema(operation), body)).toEqual([]);
    const answer = operationSchema(operation, String(r.status));
    expect({ path, errors: checkoutErrors(answer, r.body) }).toEqual({ path, errors: [] });
    return r;
  }

  async function pay(value: number, manualCapture = false) {
    const reference = `pay_${randomUUID()}`;
    const r = await checkout(
      '/payments',
      '/payments',
      {
        merchantAccount: MERCHANT,
        reference,
        returnUrl: 'https://shop.example.com/done',
        amount: { currency: 'BRL', value },
        paymentMethod: { type: 'scheme', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' },
        ...(manualCapture ? { additionalData: { manualCapture: 'true' } } : {}),
      },
      reference,
    );
    expect(r.body.resultCode).toBe('Authorised');
    return { psp: r.body.pspReference as string, reference };
  }

  const refund = (psp: string, value: number, reference: string, key?: string) =>
    checkout(
      `/payments/${psp}/refunds`,
      '/payments/{paymentPspReference}/refunds',
      { merchantAccount: MERCHANT, amount: { currency: 'BRL', value }, reference, merchantRefundReason: 'CUSTOMER REQUEST' },
      key,
    );

  /** Every item delivered so far about `originalReference` (a payment) and event codes, each body validated. */
  function delivered(match: (i: AdyenNotificationItem) => boolean): AdyenNotificationItem[] {
    const out: AdyenNotificationItem[] = [];
    for (const e of hops.delivered) {
      const body = JSON.parse(e.request);
      for (const w of body.notificationItems) {
        const item = w.NotificationRequestItem as AdyenNotificationItem;
        if (!match(item)) continue;
        expect({ eventCode: item.eventCode, errors: webhookErrors(body, schemaOf(item.eventCode)) }).toEqual({
          eventCode: item.eventCode,
          errors: [],
        });
        out.push(item);
      }
    }
    return out;
  }
  const aboutPayment = (psp: string, codes: string[]) => (i: AdyenNotificationItem) =>
    i.originalReference === psp && codes.includes(i.eventCode);
  const tick = () => t.sandbox.get(SandboxCardCasesTicker).runOnce();
  const REFUND_CODES = ['REFUND', 'REFUND_FAILED', 'REFUNDED_REVERSED', 'CANCEL_OR_REFUND'];

  it('refunds with received, then REFUND / REFUND_FAILED / REFUNDED_REVERSED by the test amounts, tick by tick', async () => {
    const { psp } = await pay(100_00);
    const keys = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const asks: [number, string][] = [
      [10_13, 'rf-declined'],
      [10_14, 'rf-fails-later'],
      [10_15, 'rf-reversed'],
      [10_00, 'rf-ok'],
    ];
    const answers = [];
    for (const [i, [value, ref]] of asks.entries()) {
      const r = await refund(psp, value, ref, keys[i]);
      expect(r.status).toBe(201);
      expect(r.body).toEqual({
        merchantAccount: MERCHANT,
        paymentPspReference: psp,
        pspReference: expect.stringMatching(/^[0-9A-F]{16}$/),
        reference: ref,
        amount: { currency: 'BRL', value },
        merchantRefundReason: 'CUSTOMER REQUEST',
        status: 'received',
      });
      answers.push(r.body);
    }
    // the same Idempotency-Key answers the same refund; with another body it is refused
    expect((await refund(psp, 10_00, 'rf-ok', keys[3])).body).toEqual(answers[3]);
    const reused = await refund(psp, 10_01, 'rf-ok', keys[3]);
    expect([reused.status, reused.body.errorCode]).toEqual([422, '704']);

    await tick();
    const first = await until(async () => {
      const got = delivered(aboutPayment(psp, REFUND_CODES));
      return got.length >= 4 && got;
    });
    const view = (i: AdyenNotificationItem) => [i.merchantReference, i.eventCode, i.success, i.reason];
    const byRef = (a: AdyenNotificationItem, b: AdyenNotificationItem) => a.merchantReference.localeCompare(b.merchantReference);
    expect(first.sort(byRef).map(view)).toEqual([
      ['rf-declined', 'REFUND', 'false', 'Refund declined'],
      ['rf-fails-later', 'REFUND', 'true', undefined],
      ['rf-ok', 'REFUND', 'true', undefined],
      ['rf-reversed', 'REFUND', 'true', undefined],
    ]);
    const ok = first.find((i) => i.merchantReference === 'rf-ok')!;
    expect(ok).toMatchObject({
      pspReference: answers[3].pspReference,
      originalReference: psp,
      merchantAccountCode: MERCHANT,
      amount: { currency: 'BRL', value: 10_00 },
      paymentMethod: 'visa',
    });

    await tick();
    const later = await until(async () => {
      const got = delivered(aboutPayment(psp, ['REFUND_FAILED', 'REFUNDED_REVERSED']));
      return got.length >= 2 && got;
    });
    expect(later.sort(byRef).map(view)).toEqual([
      ['rf-fails-later', 'REFUND_FAILED', 'true', 'Refund rejected by the card scheme'],
      ['rf-reversed', 'REFUNDED_REVERSED', 'true', undefined],
    ]);
    expect(later.find((i) => i.eventCode === 'REFUND_FAILED')!.pspReference).toBe(answers[1].pspReference);
  });

  it('answers received to a refund past what was captured, then reports REFUND with success false; /reversals refunds what remains or cancels', async () => {
    const { psp } = await pay(50_00);
    expect((await refund(psp, 40_00, 'rf-part', randomUUID())).status).toBe(201);
    const over = await refund(psp, 10_01, 'rf-over', randomUUID());
    expect(over.status).toBe(201);
    const reversal = await checkout(
      `/payments/${psp}/reversals`,
      '/payments/{paymentPspReference}/reversals',
      { merchantAccount: MERCHANT, reference: 'rv-1' },
      randomUUID(),
    );
    expect(reversal.status).toBe(201);
    expect(reversal.body).toMatchObject({ paymentPspReference: psp, reference: 'rv-1', status: 'received' });
    await tick();
    const got = await until(async () => {
      const items = delivered(aboutPayment(psp, REFUND_CODES));
      return items.length >= 3 && items;
    });
    expect(got.find((i) => i.merchantReference === 'rf-over')).toMatchObject({
      eventCode: 'REFUND',
      success: 'false',
      reason: 'Insufficient balance on payment',
      pspReference: over.body.pspReference,
    });
    expect(got.find((i) => i.eventCode === 'CANCEL_OR_REFUND')).toMatchObject({
      success: 'true',
      pspReference: reversal.body.pspReference,
      merchantReference: 'rv-1',
      amount: { currency: 'BRL', value: 10_00 },
      additionalData: expect.objectContaining({ 'modification.action': 'refund' }),
    });

    const pre = await pay(30_00, true);
    const cancel = await checkout(`/payments/${pre.psp}/reversals`, '/payments/{paymentPspReference}/reversals', {
      merchantAccount: MERCHANT,
    });
    expect(cancel.status).toBe(201);
    await tick();
    const cancelled = await until(async () => delivered(aboutPayment(pre.psp, ['CANCEL_OR_REFUND']))[0]);
    expect(cancelled).toMatchObject({ success: 'true', additionalData: expect.objectContaining({ 'modification.action': 'cancel' }) });
    expect(await t.sql(`SELECT status FROM sandbox_acquirer_card_transactions WHERE psp_reference = $1`, [pre.psp])).toEqual([
      { status: 'VOIDED' },
    ]);

    const unknown = await checkout('/payments/0000000000000000/refunds', '/payments/{paymentPspReference}/refunds', {
      merchantAccount: MERCHANT,
      amount: { currency: 'BRL', value: 1 },
    });
    expect([unknown.status, unknown.body.errorCode]).toEqual([422, '167']);
    const wrongAccount = await checkout(`/payments/${psp}/refunds`, '/payments/{paymentPspReference}/refunds', {
      merchantAccount: 'Other',
      amount: { currency: 'BRL', value: 1 },
    });
    expect(wrongAccount.status).toBe(403);
  });

  it('cancels by merchant reference (the technical cancel): TECHNICAL_CANCEL, success false when no payment has it', async () => {
    const { psp, reference } = await pay(20_00);
    const key = randomUUID();
    const body = { merchantAccount: MERCHANT, paymentReference: reference, reference: `tc-${reference}` };
    const r = await checkout('/cancels', '/cancels', body, key);
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      merchantAccount: MERCHANT,
      paymentReference: reference,
      pspReference: expect.stringMatching(/^[0-9A-F]{16}$/),
      reference: `tc-${reference}`,
      status: 'received',
    });
    expect((await checkout('/cancels', '/cancels', body, key)).body).toEqual(r.body);
    const item = await until(async () => delivered(aboutPayment(psp, ['TECHNICAL_CANCEL']))[0]);
    expect(item).toMatchObject({
      pspReference: r.body.pspReference,
      merchantReference: reference,
      success: 'true',
      amount: { value: 20_00 },
    });
    expect(await t.sql(`SELECT status FROM sandbox_acquirer_card_transactions WHERE psp_reference = $1`, [psp])).toEqual([
      { status: 'VOIDED' },
    ]);
    expect(delivered(aboutPayment(psp, ['TECHNICAL_CANCEL']))).toHaveLength(1);

    const never = `pay_${randomUUID()}`;
    const lost = await checkout('/cancels', '/cancels', { merchantAccount: MERCHANT, paymentReference: never });
    expect(lost.status).toBe(201);
    const none = await until(async () => delivered((i) => i.eventCode === 'TECHNICAL_CANCEL' && i.merchantReference === never)[0]);
    expect(none).toMatchObject({ success: 'false', reason: 'Original payment not found', amount: { currency: 'BRL', value: 0 } });
    expect(none.originalReference).toBeUndefined();
    // a body the file refuses is refused as Adyen does (422 ServiceError)
    const missing = await http(
      t.sandboxUrl,
      'POST',
      '/sandbox/adyen/checkout/v72/cancels',
      { merchantAccount: MERCHANT },
      { 'x-api-key': ADYEN_API_KEY },
    );
    expect(checkoutErrors(operationSchema('/cancels', '422'), missing.body)).toEqual([]);
    expect(missing.status).toBe(422);
  });

  it('plays a dispute on the test clock as Adyen dispute webhooks, in order, one pspReference, no disputeStatus (Brazil)', async () => {
    const { psp, reference } = await pay(70_00);
    expect((await refund(psp, 20_00, 'rf-before-dispute', randomUUID())).status).toBe(201);
    const opened = await http(t.sandboxUrl, 'POST', '/sandbox/acquirer/disputes', { pspReference: psp, sequence: 'second_chargeback' });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      face: 'adyen',
      pspReference: expect.stringMatching(/^[0-9A-F]{16}$/),
      amount: 50,
      reasonCode: '10.4',
    });
    const stages = ['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK'];
    const disputeItems = () => delivered((i) => i.pspReference === opened.body.pspReference);
    for (const [n, stage] of stages.entries()) {
      expect((await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 1 })).status).toBe(200);
      const got = await until(async () => {
        const items = disputeItems();
        return items.length > n && items;
      });
      expect(got.map((i) => i.eventCode)).toEqual(stages.slice(0, n + 1)); // one stage per day, in order
      expect(stage).toBe(got[n].eventCode);
    }
    const items = disputeItems();
    for (const i of items) {
      expect(i).toMatchObject({
        originalReference: psp,
        merchantReference: reference,
        success: 'true',
        amount: { currency: 'BRL', value: 50_00 },
        reason: 'Other Fraud-Card Absent Environment',
      });
      expect(i.additionalData).toMatchObject({
        chargebackReasonCode: '10.4',
        chargebackSchemeCode: 'visa',
        modificationMerchantReferences: 'rf-before-dispute',
      });
      expect(i.additionalData!.disputeStatus).toBeUndefined();
    }
    expect(items[0].additionalData!.defensePeriodEndsAt).toBe(opened.body.defendBy);
    expect(items[2].additionalData).toMatchObject({ defendable: 'false' });
    expect(items[2].additionalData!.defensePeriodEndsAt).toBeUndefined();
  });
});
