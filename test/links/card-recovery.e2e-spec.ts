import { randomUUID } from 'node:crypto';
import { AcquirerPort } from '../../src/provider/acquirer.port';
import { LinksHousekeeping } from '../../src/links/payments/links-housekeeping';
import { PaymentLedger } from '../../src/links/payments/payment-ledger';
import { startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { CARD, createLink, detail, pay, PAYER } from './support';

/** A card attempt whose answer was lost (the process died during the authorization) is reconciled from the acquirer. */
describe('lost card attempts', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  beforeAll(async () => {
    t = await startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10', LINKS_TICK_MS: '60000' } });
    a = await onboardTenant(t, { rateLimitPerMinute: 10000 });
  });
  afterAll(() => t.close());

  /** What StartPayment does up to the acquirer's answer, then "crashes". */
  async function crashAfterAsking(linkId: string, tenantId: string, pan: string | null) {
    const id = randomUUID();
    const ledger = t.app.get(PaymentLedger);
    await ledger.reserve(linkId, id, new Date(Date.now() + 120_000));
    const item = {
      id,
      linkId,
      tenantId,
      method: 'CARD' as const,
      status: 'PENDING',
      amountCents: 2000,
      feeCents: 60,
      netCents: 1940,
      installments: 1,
      payer: PAYER(7),
      instrument: { brand: 'visa', last4: (pan ?? '0000').slice(-4) },
      splits: [],
      acquirerId: null,
      reason: null,
      paidAt: null,
    };
    await ledger.savePendingCard(item, 0);
    if (pan)
      await t.app.get(AcquirerPort).authorizeCard({
        transactionId: id,
        merchantId: 'mer_x',
        amountCents: 2000,
        installments: 1,
        capture: 'SALE',
        card: { pan, expMonth: 12, expYear: 2035, cvv: '123' },
      });
    return id;
  }

  it('records the authorization the acquirer made, with its counters; drops an attempt the acquirer never saw and frees its use', async () => {
    const l = await createLink(t, a.auth, { amount: 20, maxUses: 1 });
    const lost = await crashAfterAsking(l.linkId, a.tenantId, null);
    // while the attempt holds the only use, nobody else can pay
    expect((await pay(t, l.slug, { method: 'CARD', payer: PAYER(1), card: CARD() })).body.error).toBe('link_busy');
    await t.app.get(LinksHousekeeping).run();
    expect(await t.sql('SELECT count(*)::int AS n FROM links_card_attempts WHERE payment_id = $1', [lost])).toEqual([{ n: 0 }]);
    expect((await detail(t, a.auth, l.linkId)).payments).toBeNull();

    const taken = await crashAfterAsking(l.linkId, a.tenantId, '4111111111111111');
    await t.app.get(LinksHousekeeping).run();
    const d = await detail(t, a.auth, l.linkId);
    expect(d.payments).toEqual([expect.objectContaining({ id: taken, status: 'ACCEPTED', amount: 20, paid: true })]);
    expect(d).toMatchObject({ status: 'EXHAUSTED', attemptCount: 1, paidCount: 1, totalPaid: 20 });
    expect(await t.sql('SELECT count(*)::int AS n FROM links_card_attempts')).toEqual([{ n: 0 }]);
  });

  it('leaves nothing behind for attempts answered normally', async () => {
    const l = await createLink(t, a.auth, { amount: 5 });
    await pay(t, l.slug, { method: 'CARD', payer: PAYER(2), card: CARD('4000000000000002') });
    await pay(t, l.slug, { method: 'CARD', payer: PAYER(3), card: CARD() });
    expect(await t.sql('SELECT count(*)::int AS n FROM links_card_attempts')).toEqual([{ n: 0 }]);
  });
});
