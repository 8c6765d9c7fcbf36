import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { advanceDays, CARD, createLink, DAY, detail, pay, PAYER } from './support';

/** The tenant API of payment links, merchants and fees, over real HTTP with real tokens. */
describe('payment links API', () => {
  let t: TestApp;
  let a: OnboardedTenant;
  let b: OnboardedTenant;
  let merchants: any[];

  beforeAll(async () => {
    t = await startTestApp({ env: { ACQUIRER_RETRY_DELAYS_MS: '10', PUBLIC_URL: 'https://pay.example.com' } });
    a = await onboardTenant(t, { name: 'A', rateLimitPerMinute: 10000 });
    b = await onboardTenant(t, { name: 'B', rateLimitPerMinute: 10000 });
    merchants = (await http(t.url, 'GET', '/v1/acquiring/merchants', undefined, a.auth)).body.items;
  });
  afterAll(() => t.close());

  const owner = () => merchants.find((m) => m.isOwner).merchantId;
  const partner = (i = 0) => merchants.filter((m) => !m.isOwner)[i].merchantId;
  const linksCount = async () => (await t.sql('SELECT count(*)::int AS n FROM links'))[0].n;

  describe('merchants', () => {
    it('gives each tenant its sandbox merchants on first use, the owner first, with fees', async () => {
      expect(merchants).toHaveLength(3);
      expect(merchants[0]).toMatchObject({ isOwner: true, source: 'SANDBOX', fees: { PIX: { percent: 0.99 }, BOLETO: { fixed: 3.49 } } });
      expect(merchants[0].fees.CARD.percentByInstallments['12']).toBe(3.99);
      const again = (await http(t.url, 'GET', '/v1/acquiring/merchants', undefined, a.auth)).body;
      expect(again.items.map((m: any) => m.merchantId)).toEqual(merchants.map((m) => m.merchantId));
      const other = (await http(t.url, 'GET', '/v1/acquiring/merchants', undefined, b.auth)).body.items;
      expect(other.map((m: any) => m.merchantId)).not.toContain(owner());
    });

    it('lets an operator add a merchant with its own fee table; refuses a wrong key, an unknown tenant and a bad table', async () => {
      const fees = {
        CARD: { percentByInstallments: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [String(i + 1), 1.5])), fixed: 0.1 },
        PIX: { percent: 0.5, fixed: 0 },
        BOLETO: { fixed: 2 },
      };
      const add = await http(
        t.url,
        'POST',
        `/admin/tenants/${a.tenantId}/merchants`,
        { name: 'Parceiro Admin', taxId: '11222333000181', fees },
        { 'X-Admin-Key': t.adminKey },
      );
      expect(add.status).toBe(201);
      expect(add.body).toMatchObject({ merchantId: expect.stringMatching(/^mer_/), isOwner: false, source: 'ADMIN', fees });
      expect((await http(t.url, 'POST', `/admin/tenants/${a.tenantId}/merchants`, { name: 'x' }, { 'X-Admin-Key': 'nope' })).status).toBe(
        401,
      );
      const unknown = await http(
        t.url,
        'POST',
        `/admin/tenants/00000000-0000-4000-8000-000000000000/merchants`,
        { name: 'x' },
        { 'X-Admin-Key': t.adminKey },
      );
      expect(unknown.body.error).toBe('tenant_not_found');
      const bad = await http(
        t.url,
        'POST',
        `/admin/tenants/${a.tenantId}/merchants`,
        { name: 'x', fees: { ...fees, CARD: { percentByInstallments: { 1: 2 }, fixed: 0 } } },
        { 'X-Admin-Key': t.adminKey },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe('fee_invalid');
      merchants = (await http(t.url, 'GET', '/v1/acquiring/merchants', undefined, a.auth)).body.items;
      expect(merchants).toHaveLength(4);

      // its fee table is the one simulated
      const sim = await http(
        t.url,
        'POST',
        '/v1/acquiring/fees/simulate',
        { amount: 100, paymentMethod: 'CARD', installments: 2, merchantId: add.body.merchantId },
        a.auth,
      );
      expect(sim.body).toMatchObject({ fee: 1.6, netAmount: 98.4, feePercent: 1.5, feeFixed: 0.1 });
    });
  });

  describe('fee simulation', () => {
    it('answers fee and net, and with passFee the least gross that nets the amount exactly', async () => {
      const plain = await http(
        t.url,
        'POST',
        '/v1/acquiring/fees/simulate',
        { amount: 100, paymentMethod: 'CARD', installments: 3 },
        a.auth,
      );
      expect(plain.status).toBe(200);
      expect(plain.body).toEqual({
        merchantId: owner(),
        passFee: false,
        amount: 100,
        paymentMethod: 'CARD',
        installments: 3,
        grossAmount: 100,
        fee: 3.49,
        netAmount: 96.51,
        installmentAmounts: [33.34, 33.33, 33.33],
        feePercent: 3.49,
        feeFixed: 0,
      });
      const up = await http(
        t.url,
        'POST',
        '/v1/acquiring/fees/simulate',
        { amount: 100, paymentMethod: 'CARD', installments: 3, passFee: true },
        a.auth,
      );
      expect(up.body).toMatchObject({ grossAmount: 103.62, fee: 3.62, netAmount: 100 });
      // one cent less would not net 100: ceil(103.61 * 3.49%) = 3.62 → 99.99
      const boleto = await http(
        t.url,
        'POST',
        '/v1/acquiring/fees/simulate',
        { amount: 50, paymentMethod: 'BOLETO', passFee: true },
        a.auth,
      );
      expect(boleto.body).toMatchObject({ grossAmount: 53.49, fee: 3.49, netAmount: 50 });
    });

    it('refuses installments on Pix, a fee larger than the amount, and another tenant’s merchant', async () => {
      const pix = await http(t.url, 'POST', '/v1/acquiring/fees/simulate', { amount: 100, paymentMethod: 'PIX', installments: 2 }, a.auth);
      expect([pix.status, pix.body.error]).toEqual([400, 'installments_invalid']);
      const tiny = await http(t.url, 'POST', '/v1/acquiring/fees/simulate', { amount: 1, paymentMethod: 'BOLETO' }, a.auth);
      expect([tiny.status, tiny.body.error]).toEqual([400, 'fee_invalid']);
      const foreign = await http(
        t.url,
        'POST',
        '/v1/acquiring/fees/simulate',
        { amount: 10, paymentMethod: 'PIX', merchantId: owner() },
        b.auth,
      );
      expect([foreign.status, foreign.body.error]).toEqual([404, 'merchant_not_found']);
    });
  });

  describe('create, read, list', () => {
    it('creates a link: slug, checkoutUrl on PUBLIC_URL, ACTIVE, feeSimulation for every option; payments null until the first attempt', async () => {
      const r = await http(
        t.url,
        'POST',
        '/v1/acquiring/links',
        {
          name: 'Curso',
          description: 'Turma 1',
          amount: 150,
          paymentMethods: ['CARD', 'PIX'],
          maxInstallments: 3,
          passFee: true,
          maxUses: 10,
          splits: [
            { merchantId: owner(), percentage: 70 },
            { merchantId: partner(), percentage: 30 },
          ],
        },
        a.auth,
      );
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        slug: expect.stringMatching(/^[A-Za-z0-9]{10}$/),
        status: 'ACTIVE',
        amount: 150,
        passFee: true,
        maxUses: 10,
        ownerMerchantId: owner(),
        viewCount: 0,
        attemptCount: 0,
        paidCount: 0,
        totalPaid: 0,
      });
      expect(r.body.checkoutUrl).toBe(`https://pay.example.com/checkout/${r.body.slug}`);
      expect(r.body.feeSimulation.options.map((o: any) => `${o.paymentMethod}${o.installments}:${o.grossAmount}`)).toEqual([
        'CARD1:154.63',
        'CARD2:155.43',
        'CARD3:155.43',
        'PIX1:151.5',
      ]);
      expect(r.body.feeSimulation.options.every((o: any) => o.netAmount === 150)).toBe(true);
      const d = await detail(t, a.auth, r.body.linkId);
      expect(d.payments).toBeNull();
      expect(d.events).toEqual([expect.objectContaining({ type: 'LINK_CREATED' })]);
      const open = await createLink(t, a.auth, { minAmount: 5, maxAmount: 500 });
      expect(open).toMatchObject({ amount: null, minAmount: 5, maxAmount: 500, feeSimulation: null, maxInstallments: 1 });
    });

    it('refuses bad links with a code naming the rule, writing nothing', async () => {
      const before = await linksCount();
      const cases: [Record<string, unknown>, string, string?][] = [
        [{ paymentMethods: [] }, 'validation_error', 'paymentMethods'],
        [{ paymentMethods: ['CASH'] }, 'validation_error', 'paymentMethods'],
        [{ amount: 10, maxInstallments: 13 }, 'validation_error', 'maxInstallments'],
        [{ amount: 10.001 }, 'validation_error', 'amount'],
        [{ amount: 10, minAmount: 5 }, 'invalid_link', 'minAmount'],
        [{ minAmount: 50, maxAmount: 5 }, 'invalid_link', 'minAmount'],
        [{ amount: 10, notifyEmail: true }, 'invalid_link', 'actor.email'],
        [{ amount: 10, expiresAt: '2001-01-01T00:00:00Z' }, 'invalid_link', 'expiresAt'],
        [{ amount: 10, splits: [{ merchantId: partner(), percentage: 100 }] }, 'split_owner_missing', 'splits'],
        [
          {
            amount: 10,
            splits: [
              { merchantId: owner(), percentage: 50 },
              { merchantId: owner(), percentage: 50 },
            ],
          },
          'split_duplicate_merchant',
          'splits',
        ],
        [
          {
            amount: 10,
            splits: [
              { merchantId: owner(), percentage: 60 },
              { merchantId: partner(), percentage: 30 },
            ],
          },
          'split_total_mismatch',
          'splits',
        ],
        [
          {
            amount: 10,
            splits: [
              { merchantId: owner(), amount: 5 },
              { merchantId: partner(), amount: 4 },
            ],
          },
          'split_total_mismatch',
          'splits',
        ],
        [
          {
            amount: 10,
            splits: [
              { merchantId: owner(), percentage: 50, amount: 5 },
              { merchantId: partner(), percentage: 50 },
            ],
          },
          'split_share_invalid',
          'splits',
        ],
        [
          {
            amount: 10,
            splits: [
              { merchantId: owner(), percentage: 50 },
              { merchantId: 'mer_0000000000000000', percentage: 50 },
            ],
          },
          'split_merchant_unknown',
        ],
        [
          {
            amount: 100,
            splits: [
              { merchantId: owner(), amount: 1 },
              { merchantId: partner(), amount: 99 },
            ],
          },
          'split_total_mismatch',
          'splits',
        ], // owner's share cannot pay the fee
        [{ amount: 1, paymentMethods: ['BOLETO'] }, 'fee_invalid', 'amount'],
        [{ amount: 10, unknownField: 1 }, 'validation_error', 'unknownField'],
      ];
      for (const [body, code, field] of cases) {
        const r = await http(
          t.url,
          'POST',
          '/v1/acquiring/links',
          { name: 'x', paymentMethods: ['CARD', 'PIX', 'BOLETO'], ...body },
          a.auth,
        );
        expect({ body, status: r.status, code: r.body.error }).toEqual({ body, status: 400, code });
        if (field) expect(r.body.details.map((d: any) => d.field)).toContain(field);
      }
      expect(await linksCount()).toBe(before);
    });

    it('lists newest first, filters by status, pages, and never shows another tenant’s links', async () => {
      const mine = await createLink(t, a.auth, { amount: 20, name: 'Listed' });
      await http(t.url, 'PATCH', `/v1/acquiring/links/${mine.linkId}/status`, { status: 'INACTIVE' }, a.auth);
      const page = await http(t.url, 'GET', '/v1/acquiring/links?limit=2&offset=0', undefined, a.auth);
      expect(page.body).toMatchObject({ limit: 2, offset: 0, total: expect.any(Number) });
      expect(page.body.items[0].linkId).toBe(mine.linkId);
      const inactive = await http(t.url, 'GET', '/v1/acquiring/links?status=INACTIVE', undefined, a.auth);
      expect(inactive.body.items.map((l: any) => l.linkId)).toEqual([mine.linkId]);
      expect((await http(t.url, 'GET', '/v1/acquiring/links?status=GONE', undefined, a.auth)).status).toBe(400);
      const theirs = await http(t.url, 'GET', '/v1/acquiring/links', undefined, b.auth);
      expect(theirs.body.items.map((l: any) => l.linkId)).not.toContain(mine.linkId);
      for (const [m, p] of [
        ['GET', ''],
        ['PATCH', ''],
        ['PATCH', '/status'],
      ] as const) {
        const r = await http(
          t.url,
          m,
          `/v1/acquiring/links/${mine.linkId}${p}`,
          m === 'PATCH' ? (p ? { status: 'ACTIVE' } : { name: 'stolen' }) : undefined,
          b.auth,
        );
        expect([r.status, r.body.error]).toEqual([404, 'link_not_found']);
      }
      expect((await http(t.url, 'GET', '/v1/acquiring/links', undefined)).status).toBe(401);
    });
  });

  describe('change and status', () => {
    it('PATCH changes fields (validated like a create) and records the event', async () => {
      const l = await createLink(t, a.auth, { amount: 30 });
      const r = await http(
        t.url,
        'PATCH',
        `/v1/acquiring/links/${l.linkId}`,
        { name: 'Renamed', amount: 45.5, maxInstallments: 6 },
        a.auth,
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ name: 'Renamed', amount: 45.5, maxInstallments: 6, status: 'ACTIVE' });
      const openIt = await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}`, { amount: null, minAmount: 1 }, a.auth);
      expect(openIt.body).toMatchObject({ amount: null, minAmount: 1 });
      const bad = await http(
        t.url,
        'PATCH',
        `/v1/acquiring/links/${l.linkId}`,
        { splits: [{ merchantId: partner(), percentage: 100 }] },
        a.auth,
      );
      expect([bad.status, bad.body.error]).toEqual([400, 'split_owner_missing']);
      const d = await detail(t, a.auth, l.linkId);
      expect(d.events.map((e: any) => e.type)).toEqual(['LINK_CREATED', 'LINK_UPDATED', 'LINK_UPDATED']);
      expect(d.events[1].data.fields).toEqual(['name', 'amount', 'maxInstallments']);
    });

    it('deactivates and activates; the paused checkout refuses; EXPIRED and EXHAUSTED cannot be asked for', async () => {
      const l = await createLink(t, a.auth, { amount: 12 });
      const off = await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}/status`, { status: 'INACTIVE' }, a.auth);
      expect(off.body.status).toBe('INACTIVE');
      const refused = await pay(t, l.slug, { method: 'CARD', payer: PAYER(), card: CARD() });
      expect([refused.status, refused.body.error, refused.body.linkStatus]).toEqual([409, 'link_unavailable', 'INACTIVE']);
      const page = await http(t.url, 'GET', `/checkout/${l.slug}`);
      expect(page.status).toBe(409);
      expect(page.text).toContain('Este link de pagamento está pausado');
      expect((await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}/status`, { status: 'INACTIVE' }, a.auth)).body.status).toBe(
        'INACTIVE',
      );
      expect((await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}/status`, { status: 'ACTIVE' }, a.auth)).body.status).toBe(
        'ACTIVE',
      );
      for (const s of ['EXPIRED', 'EXHAUSTED', 'DELETED']) {
        const r = await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}/status`, { status: s }, a.auth);
        expect([r.status, r.body.error]).toEqual([400, 'link_status_not_settable']);
      }
      const d = await detail(t, a.auth, l.linkId);
      expect(d.events.map((e: any) => e.type)).toEqual(['LINK_CREATED', 'LINK_DEACTIVATED', 'LINK_ACTIVATED']);
    });

    it('expires at expiresAt by the test clock: the page says so, payments are refused, the link cannot be reactivated or changed', async () => {
      const now = Date.parse((await http(t.url, 'GET', '/health/live')).headers.get('date')!);
      const l = await createLink(t, a.auth, { amount: 12, expiresAt: new Date(now + DAY / 2).toISOString() });
      expect((await pay(t, l.slug, { method: 'CARD', payer: PAYER(), card: CARD() })).body.status).toBe('ACCEPTED');
      await advanceDays(t, 1);
      const d = await detail(t, a.auth, l.linkId);
      expect(d.status).toBe('EXPIRED');
      expect(d.events.map((e: any) => e.type)).toContain('LINK_EXPIRED');
      const page = await http(t.url, 'GET', `/checkout/${l.slug}`);
      expect(page.status).toBe(410);
      expect(page.text).toContain('Este link de pagamento expirou');
      const refused = await pay(t, l.slug, { method: 'PIX', payer: PAYER() });
      expect([refused.status, refused.body.error]).toEqual([409, 'link_unavailable']);
      expect((await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}/status`, { status: 'ACTIVE' }, a.auth)).body.error).toBe(
        'invalid_transition',
      );
      expect((await http(t.url, 'PATCH', `/v1/acquiring/links/${l.linkId}`, { name: 'again' }, a.auth)).body.error).toBe(
        'invalid_transition',
      );
    });
  });
});
