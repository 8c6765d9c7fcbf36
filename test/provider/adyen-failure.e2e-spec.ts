import { randomUUID } from 'node:crypto';
import { CardAuthorizationRequest } from '../../src/provider/acquirer.port';
import { CardCharges } from '../../src/provider/acquirer/card-charges';
import { BreakerRegistry } from '../../kernel/platform/resilience/breaker-registry';
import { CardsApp, MERCHANT, startCardsApp } from '../cards/support';
import { Exchange, ProviderProxy } from '../support/provider-proxy';
import { until } from './adyen-support';

/**
 * The card edge on Adyen when things go wrong between the service and Adyen: an outage opens the
 * breaker and answers fast; an answer lost on the way back is recovered by the same
 * Idempotency-Key, never by a second charge; a webhook that arrives before the answer changes
 * nothing twice.
 */
describe('card edge on Adyen: outages, lost answers, early webhooks', () => {
  let c: CardsApp;
  const hop = new ProviderProxy();
  const sent: Exchange[] = [];

  beforeAll(async () => {
    hop.exchanges = sent;
    const url = await hop.start();
    c = await startCardsApp({
      ACQUIRER_PROVIDER: 'adyen',
      ADYEN_CHECKOUT_URL: `${url}/sandbox/adyen/checkout/v72`,
      ACQUIRER_BREAKER_RESET_MS: '400',
      ACQUIRER_RETRY_DELAYS_MS: '10,10',
    });
    hop.target = c.t.sandboxUrl;
  });
  afterAll(async () => {
    await c.close();
    await hop.close();
  });

  const charges = () => c.t.app.get(CardCharges);
  const req = (pan = '4111111111111111'): CardAuthorizationRequest => ({
    transactionId: `pay_${randomUUID()}`,
    merchantId: MERCHANT,
    amountCents: 4200,
    installments: 1,
    capture: 'SALE',
    card: { pan, expMonth: 3, expYear: 2030, cvv: '737' },
  });
  const transactionsOf = async (reference: string) =>
    (await c.t.sql(`SELECT count(*)::int AS n FROM sandbox_acquirer_card_transactions WHERE merchant_reference = $1`, [reference]))[0].n;

  it('an answer lost on the way back: the retry with the same Idempotency-Key gets the first authorization', async () => {
    const r = req();
    let lost = 0;
    hop.onAnswer = (e) =>
      e.path.endsWith('/payments') && lost++ === 0
        ? { status: 502, body: { status: 502, errorCode: '000', message: 'lost', errorType: 'internal' } }
        : undefined;
    try {
      const answer = await charges().authorize(r);
      expect(answer).toMatchObject({ status: 'ACCEPTED' });
    } finally {
      hop.onAnswer = null;
    }
    const tries = sent.filter((e) => e.path.endsWith('/payments') && JSON.parse(e.request).reference === r.transactionId);
    expect(tries.length).toBe(2);
    expect(new Set(tries.map((e) => e.headers['idempotency-key']))).toEqual(new Set([r.transactionId]));
    expect(await transactionsOf(r.transactionId)).toBe(1);
  });

  it('the AUTHORISATION webhook before the answer: one authorization, one verdict kept, the same result either way', async () => {
    const r = req('5555555555554444');
    hop.onAnswer = async (e) => {
      if (!e.path.endsWith('/payments')) return;
      await until(async () => (await c.t.sql(`SELECT 1 FROM adyen_notifications WHERE merchant_reference = $1`, [r.transactionId]))[0]);
    };
    try {
      await expect(charges().authorize(r)).resolves.toMatchObject({ status: 'ACCEPTED' });
    } finally {
      hop.onAnswer = null;
    }
    await expect(charges().reconcile(r.transactionId)).resolves.toMatchObject({ status: 'ACCEPTED' });
    expect(await c.t.sql(`SELECT event_code, success FROM adyen_notifications WHERE merchant_reference = $1`, [r.transactionId])).toEqual([
      { event_code: 'AUTHORISATION', success: true },
    ]);
    expect(await transactionsOf(r.transactionId)).toBe(1);
  });
  it('every answer to POST /payments lost: the attempt ends ACCEPTED or cancelled at Adyen (technical cancel), never FAILED while authorised there', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = req();
      hop.onAnswer = (e) =>
        e.path.endsWith('/payments')
          ? { status: 502, body: { status: 502, errorCode: '000', message: 'lost', errorType: 'internal' } }
          : undefined;
      let answer;
      try {
        answer = await charges().authorize(r);
      } finally {
        hop.onAnswer = null;
      }
      const held = await c.t.sql(`SELECT status FROM sandbox_acquirer_card_transactions WHERE merchant_reference = $1`, [r.transactionId]);
      expect(held).toHaveLength(1); // it did reach Adyen and was authorized there
      if (answer.status === 'FAILED') {
        // failed here only once Adyen took the technical cancel by our reference
        const cancels = sent.filter((e) => e.path.endsWith('/cancels') && JSON.parse(e.request).paymentReference === r.transactionId);
        expect(cancels.length).toBeGreaterThan(0);
        expect(cancels[cancels.length - 1].status).toBe(201);
        expect(held[0].status).toBe('VOIDED');
      } else expect(answer.status).toBe('ACCEPTED');
      outcomes.push(answer.status);
      await new Promise((res) => setTimeout(res, 450)); // the breaker's reset
    }
    expect(outcomes.length).toBe(3);
  });

  // last: its failures stay in the breaker's rolling window
  it('Adyen down: attempts that reached it are left unknown, the breaker opens, later attempts fail fast without reaching Adyen, and it closes when Adyen is back', async () => {
    hop.mode = 'down';
    const first = req();
    const verdicts: string[] = [];
    for (let i = 0; i < 4; i++) verdicts.push((await charges().authorize(i === 0 ? first : req())).status);
    // An attempt sent and not answered may have been authorized, and the technical cancel could not
    // be sent either: UNKNOWN (the caller leaves it to reconciliation), never FAILED on a guess.
    expect(verdicts[0]).toBe('UNKNOWN');
    expect(verdicts.every((v) => v === 'UNKNOWN' || v === 'FAILED')).toBe(true);
    expect(c.t.app.get(BreakerRegistry).states()['acquirer.authorizeCard']).toBe('open');
    const calls = hop.calls;
    const t0 = Date.now();
    // the breaker is open: nothing is sent, so nothing can have been authorized: FAILED at once
    await expect(charges().authorize(req())).resolves.toMatchObject({ status: 'FAILED', reason: 'acquirer_unavailable' });
    expect(Date.now() - t0).toBeLessThan(100);
    expect(hop.calls).toBe(calls);
    hop.mode = 'up';
    await new Promise((r) => setTimeout(r, 500));
    // the first attempt again, with its own key: one charge, never two
    await expect(charges().authorize(first)).resolves.toMatchObject({ status: 'ACCEPTED' });
    await expect(charges().authorize(first)).resolves.toMatchObject({ status: 'ACCEPTED' });
    expect(await transactionsOf(first.transactionId)).toBe(1);
    expect(c.t.app.get(BreakerRegistry).states()['acquirer.authorizeCard']).toBe('closed');
  });
});
