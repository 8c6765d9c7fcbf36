import { randomUUID } from 'node:crypto';
import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { advanceDays, CARD, createLink, detail, pay, PAYER } from './support';

const PAID = ['ACCEPTED', 'CAPTURED', 'PAID', 'PAID_PIX', 'AUTHORIZED', 'SETTLED'];

/** The payments array and the metrics (the spec's five rules), and maxUses under parallel payers. */
describe('link payments and metrics', () => {
  let t: TestApp;
  let a: OnboardedTenant;

  beforeAll(async () => {
    t = await startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10', SANDBOX_ACQUIRER_TICK_MS: '60000', LINKS_TICK_MS: '60000' } });
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
  });
  afterAll(() => t.close());

  /** The stored counters must always equal what the items say. */
  async function countersAgree(linkId: string) {
    const [l] = await t.sql('SELECT attempt_count, paid_count, total_paid_cents FROM links WHERE id = $1', [linkId]);
    const [p] = await t.sql(
      `SELECT count(*)::int AS attempts, count(*) FILTER (WHERE status = ANY($2))::int AS paid, coalesce(sum(amount_cents) FILTER (WHERE status = ANY($2)), 0)::bigint AS total
       FROM links_payments WHERE link_id = $1`,
      [linkId, PAID],
    );
    expect({ attempts: l.attempt_count, paid: l.paid_count, total: l.total_paid_cents }).toEqual({
      attempts: p.attempts,
      paid: p.paid,
      total: p.total,
    });
  }

  it('records every attempt, updates the same item on a state change, and counts paid ones once', async () => {
    const l = await createLink(t, a.auth, { amount: 100, maxInstallments: 3 });
    // two page loads count two views; the status polls of the page do not
    expect((await http(t.url, 'GET', `/checkout/${l.slug}`)).status).toBe(200);
    expect((await http(t.url, 'GET', `/checkout/${l.slug}`)).status).toBe(200);

    const refused = await pay(t, l.slug, { method: 'CARD', payer: PAYER(1), card: CARD('4000000000000002') });
    expect(refused.body).toMatchObject({ status: 'AUTH_REJECTED', paid: false, reason: 'generic_decline' });
    const failed = await pay(t, l.slug, { method: 'CARD', payer: PAYER(1), card: CARD('4000000000000119') });
    expect(failed.body).toMatchObject({ status: 'FAILED', reason: 'processing_error' });
    const attemptId = randomUUID();
    const ok = await pay(t, l.slug, { attemptId, method: 'CARD', installments: 3, payer: PAYER(1), card: CARD('5555555555554444') });
    expect(ok.body).toMatchObject({ paymentId: attemptId, status: 'ACCEPTED', paid: true, amount: 100, installments: 3 });
    // a double submit of the same attempt is the same item
    const again = await pay(t, l.slug, { attemptId, method: 'CARD', installments: 3, payer: PAYER(1), card: CARD('5555555555554444') });
    expect(again.body.paymentId).toBe(attemptId);

    const pix = (await pay(t, l.slug, { method: 'PIX', payer: PAYER(2) })).body;
    expect(pix).toMatchObject({
      status: 'PENDING',
      pending: true,
      pix: { brCode: expect.stringMatching(/^000201/), qrCode: expect.stringMatching(/^data:image\/png;base64,/) },
    });
    const unpaidPix = (await pay(t, l.slug, { method: 'PIX', payer: PAYER(3) })).body;
    const slipPix = (await pay(t, l.slug, { method: 'BOLETO', payer: PAYER(4) })).body;
    const slipBank = (await pay(t, l.slug, { method: 'BOLETO', payer: PAYER(5) })).body;
    expect(slipBank.boleto.digitableLine).toMatch(/^\d{47}$/);

    let d = await detail(t, a.auth, l.linkId);
    expect(d.payments.map((p: any) => `${p.transactionMethod}:${p.status}`)).toEqual([
      'CARD:AUTH_REJECTED',
      'CARD:FAILED',
      'CARD:ACCEPTED',
      'PIX:PENDING',
      'PIX:PENDING',
      'BOLETO:PENDING',
      'BOLETO:PENDING',
    ]);
    expect(d).toMatchObject({ viewCount: 2, attemptCount: 7, paidCount: 1, totalPaid: 100 });
    const ids = d.payments.map((p: any) => p.id);

    // the payer's bank pays: Pix AUTHORIZED, a boleto by its QR (PAID_PIX), another by bank (PAID)
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/pix/${pix.pix.txid}/pay`)).body.status).toBe('AUTHORIZED');
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${slipPix.boleto.boletoId}/pay`, { via: 'PIX' })).body.status).toBe(
      'PAID_PIX',
    );
    expect((await http(t.sandboxUrl, 'POST', `/sandbox/boletos/${slipBank.boleto.boletoId}/pay`, {})).body.status).toBe('PAID');
    const polled = await http(t.url, 'GET', `/checkout/${l.slug}/payments/${pix.paymentId}`);
    expect(polled.body).toMatchObject({ status: 'AUTHORIZED', paid: true });

    d = await detail(t, a.auth, l.linkId);
    expect(d.payments.map((p: any) => p.id)).toEqual(ids);
    expect(d.payments.map((p: any) => p.status)).toEqual([
      'AUTH_REJECTED',
      'FAILED',
      'ACCEPTED',
      'AUTHORIZED',
      'PENDING',
      'PAID_PIX',
      'PAID',
    ]);
    expect(d).toMatchObject({ viewCount: 2, attemptCount: 7, paidCount: 4 });
    expect(d.totalPaid).toBeCloseTo(100 + 100 + 100 + 100, 2);

    // a day later: the paid Pix settles (same item, not counted again), the unpaid QR expires
    await advanceDays(t, 1);
    d = await detail(t, a.auth, l.linkId);
    expect(d.payments.map((p: any) => p.status)).toEqual(['AUTH_REJECTED', 'FAILED', 'ACCEPTED', 'SETTLED', 'EXPIRED', 'PAID_PIX', 'PAID']);
    expect(d).toMatchObject({ attemptCount: 7, paidCount: 4, totalPaid: 400 });
    expect(d.payments[3]).toMatchObject({
      id: pix.paymentId,
      paid: true,
      method: { type: 'PIX', txid: pix.pix.txid },
      payer: { name: 'Payer 2' },
    });
    expect(d.payments[4]).toMatchObject({ id: unpaidPix.paymentId, paid: false });
    const changes = d.events.filter((e: any) => e.type === 'PAYMENT_STATUS_CHANGED').map((e: any) => `${e.data.from}>${e.data.to}`);
    expect(changes.sort()).toEqual(['AUTHORIZED>SETTLED', 'PENDING>AUTHORIZED', 'PENDING>EXPIRED', 'PENDING>PAID', 'PENDING>PAID_PIX']);
    await countersAgree(l.linkId);

    const metrics = (await http(t.url, 'GET', '/metrics')).text;
    expect(metrics).toContain('links_payment_statuses_total{method="PIX",status="SETTLED"} 1');
    expect(metrics).toContain('links_payment_statuses_total{method="CARD",status="AUTH_REJECTED"} 1');

    // an acquirer notification repeated (at-least-once delivery) changes nothing
    await t.sql(`UPDATE sandbox_acquirer_notifications SET delivered_at = NULL, next_attempt_at = now()`);
    await (t.sandbox.get(require('../../sandbox/src/acquirer/sandbox-notifier').SandboxNotifier) as any).deliverDue(500);
    expect(await detail(t, a.auth, l.linkId)).toMatchObject({ attemptCount: 7, paidCount: 4, totalPaid: 400 });
    await countersAgree(l.linkId);
  });

  it('gives a link with maxUses > 1 one entry per payer, and becomes EXHAUSTED at maxUses', async () => {
    const l = await createLink(t, a.auth, { amount: 10, maxUses: 2 });
    await pay(t, l.slug, { method: 'CARD', payer: PAYER(11), card: CARD() });
    const second = await pay(t, l.slug, { method: 'CARD', payer: PAYER(12), card: CARD('4242424242424242') });
    expect(second.body.status).toBe('ACCEPTED');
    const d = await detail(t, a.auth, l.linkId);
    expect(d.payments.map((p: any) => p.payer.email)).toEqual(['payer11@example.com', 'payer12@example.com']);
    expect(d).toMatchObject({ status: 'EXHAUSTED', paidCount: 2, attemptCount: 2, totalPaid: 20 });
    expect(d.events.map((e: any) => e.type)).toContain('LINK_EXHAUSTED');
    const third = await pay(t, l.slug, { method: 'PIX', payer: PAYER(13) });
    expect([third.status, third.body.error, third.body.linkStatus]).toEqual([409, 'link_unavailable', 'EXHAUSTED']);
    expect((await detail(t, a.auth, l.linkId)).attemptCount).toBe(2);
  });

  it('lets exactly one of many parallel payers take the last use', async () => {
    const l = await createLink(t, a.auth, { amount: 25, maxUses: 3 });
    await pay(t, l.slug, { method: 'CARD', payer: PAYER(20), card: CARD() });
    await pay(t, l.slug, { method: 'CARD', payer: PAYER(21), card: CARD() });
    const racers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        pay(t, l.slug, i % 2 ? { method: 'CARD', payer: PAYER(30 + i), card: CARD() } : { method: 'PIX', payer: PAYER(30 + i) }),
      ),
    );
    const accepted = racers.filter((r) => r.status === 201);
    expect(accepted).toHaveLength(1);
    for (const r of racers.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(['link_busy', 'link_unavailable']).toContain(r.body.error);
      expect(r.body.message).toMatch(/last available use|no more payments/);
    }
    const winner = accepted[0].body;
    if (winner.method === 'PIX') await http(t.sandboxUrl, 'POST', `/sandbox/pix/${winner.pix.txid}/pay`);
    const d = await detail(t, a.auth, l.linkId);
    expect(d).toMatchObject({ status: 'EXHAUSTED', paidCount: 3, attemptCount: 3 });
    await countersAgree(l.linkId);
  });

  it('holds the last use while a Pix QR is unpaid, and gives it back when the QR expires', async () => {
    const l = await createLink(t, a.auth, { amount: 5, maxUses: 1 });
    const first = await pay(t, l.slug, { method: 'PIX', payer: PAYER(40) });
    expect(first.body.status).toBe('PENDING');
    const busy = await pay(t, l.slug, { method: 'CARD', payer: PAYER(41), card: CARD() });
    expect([busy.status, busy.body.error]).toEqual([409, 'link_busy']);
    expect(busy.headers.get('retry-after')).toBe('60');
    await advanceDays(t, 1); // the QR expires; its hold goes with it
    const next = await pay(t, l.slug, { method: 'CARD', payer: PAYER(41), card: CARD() });
    expect(next.body.status).toBe('ACCEPTED');
    const d = await detail(t, a.auth, l.linkId);
    expect(d.payments.map((p: any) => p.status)).toEqual(['EXPIRED', 'ACCEPTED']);
    expect(d.status).toBe('EXHAUSTED');
  });

  it('checks the card again on the server and never keeps the number', async () => {
    const l = await createLink(t, a.auth, { amount: 7 });
    const cases: [Record<string, unknown>, string][] = [
      [CARD('4111111111111112'), 'card.number'],
      [{ ...CARD(), expMonth: 1, expYear: 2020 }, 'card.expiry'],
      [{ ...CARD(), cvv: '12' }, 'validation_error'],
      [{ ...CARD('378282246310005'), cvv: '123' }, 'card.cvv'],
      [CARD('9111111111111113'), 'card.number'],
    ];
    for (const [card, field] of cases) {
      const r = await pay(t, l.slug, { method: 'CARD', payer: PAYER(), card });
      expect(r.status).toBe(400);
      if (field === 'validation_error') expect(r.body.error).toBe('validation_error');
      else expect([r.body.error, r.body.details[0].field]).toEqual(['card_invalid', field]);
    }
    const noCard = await pay(t, l.slug, { method: 'CARD', payer: PAYER() });
    expect(noCard.body.error).toBe('card_invalid');
    const noTaxId = await pay(t, l.slug, { method: 'BOLETO', payer: { name: 'Ana', email: 'a@x.com' } });
    expect([noTaxId.status, noTaxId.body.error]).toEqual([400, 'payer_invalid']);
    const installments = await pay(t, l.slug, { method: 'CARD', installments: 2, payer: PAYER(), card: CARD() });
    expect(installments.body.error).toBe('installments_invalid');
    expect((await detail(t, a.auth, l.linkId)).payments).toBeNull();
    await pay(t, l.slug, { method: 'CARD', payer: PAYER(), card: CARD('4242 4242 4242 4242') });
    const stored = JSON.stringify(await t.sql('SELECT * FROM links_payments'));
    expect(stored).not.toMatch(/4242424242424242|4111111111111111/);
    expect(t.logs()).not.toMatch(/4242424242424242|4242 4242 4242 4242/);
  });

  it('prices open amounts within their range, with splits and fee pass-through', async () => {
    const owner = (await http(t.url, 'GET', '/v1/acquiring/merchants', undefined, a.auth)).body.items;
    const l = await createLink(t, a.auth, {
      minAmount: 10,
      maxAmount: 1000,
      passFee: true,
      maxInstallments: 2,
      splits: [
        { merchantId: owner[0].merchantId, percentage: 66.67 },
        { merchantId: owner[1].merchantId, percentage: 33.33 },
      ],
    });
    const quote = await http(t.url, 'POST', `/checkout/${l.slug}/quote`, { amount: 99.99 });
    expect(quote.body.options.map((o: any) => [o.paymentMethod, o.installments, o.grossAmount, o.netAmount])).toEqual([
      ['CARD', 1, 103.08, 99.99],
      ['CARD', 2, 103.61, 99.99],
      ['PIX', 1, 100.99, 99.99],
      ['BOLETO', 1, 103.48, 99.99],
    ]);
    expect((await pay(t, l.slug, { method: 'PIX', payer: PAYER() })).body.error).toBe('invalid_amount');
    expect((await pay(t, l.slug, { method: 'PIX', amount: 5, payer: PAYER() })).body.error).toBe('invalid_amount');
    const p = await pay(t, l.slug, { method: 'CARD', amount: 99.99, installments: 2, payer: PAYER(), card: CARD() });
    expect(p.body).toMatchObject({ status: 'ACCEPTED', amount: 103.61 });
    const item = (await detail(t, a.auth, l.linkId)).payments[0];
    expect(item).toMatchObject({ amount: 103.61, fee: 3.62, netAmount: 99.99 });
    // 33.33 % of 99.99 = 33.3266 → 33.32 to the partner; the cent lost to rounding goes to the owner
    expect(item.splits).toEqual([
      { merchantId: owner[0].merchantId, amount: 66.67 },
      { merchantId: owner[1].merchantId, amount: 33.32 },
    ]);
  });
});
