import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant } from '../support/tenant-auth';

/** Outside sandbox mode: no sandbox routes, no seeded merchants; operators add the merchants. */
describe('links without the sandbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: {
        SANDBOX_ENABLED: 'false',
        PROVIDER_URL: 'http://127.0.0.1:9/bank',
        ACQUIRER_URL: 'http://127.0.0.1:9/acquirer',
        ACQUIRER_RETRY_DELAYS_MS: '10',
      },
    });
  });
  afterAll(() => t.close());

  it('answers 404 on the sandbox routes and needs an operator to add the tenant’s merchant', async () => {
    for (const [m, p] of [
      ['POST', '/sandbox/pix/abc/pay'],
      ['POST', '/sandbox/boletos/bol_1/pay'],
      ['GET', '/sandbox/bank-app'],
      ['POST', '/sandbox/acquirer/v1/card-authorizations'],
    ] as const) {
      const r = await http(t.url, m, p, m === 'POST' ? {} : undefined);
      expect({ p, status: r.status }).toEqual({ p, status: 404 });
    }
    const a = await onboardTenant(t);
    expect((await http(t.url, 'GET', '/v1/acquiring/merchants', undefined, a.auth)).body).toEqual({ total: 0, items: [] });
    const none = await http(t.url, 'POST', '/v1/acquiring/links', { name: 'x', amount: 10, paymentMethods: ['PIX'] }, a.auth);
    expect([none.status, none.body.error]).toEqual([404, 'merchant_not_found']);

    const add = await http(
      t.url,
      'POST',
      `/admin/tenants/${a.tenantId}/merchants`,
      { name: 'ACME Ltda', taxId: '11222333000181', isOwner: true },
      { 'X-Admin-Key': t.adminKey },
    );
    expect(add.body).toMatchObject({ isOwner: true, source: 'ADMIN' });
    const second = await http(
      t.url,
      'POST',
      `/admin/tenants/${a.tenantId}/merchants`,
      { name: 'Other', isOwner: true },
      { 'X-Admin-Key': t.adminKey },
    );
    expect(second.status).toBe(400);
    const link = await http(t.url, 'POST', '/v1/acquiring/links', { name: 'x', amount: 10, paymentMethods: ['PIX', 'CARD'] }, a.auth);
    expect(link.status).toBe(201);
    const page = await http(t.url, 'GET', `/checkout/${link.body.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Sandbox mode');

    // the acquirer is unreachable: Pix is refused with a clear 503 and no attempt recorded; a card attempt is FAILED
    const pix = await http(t.url, 'POST', `/checkout/${link.body.slug}/payments`, {
      method: 'PIX',
      payer: { name: 'Ana', email: 'a@x.com' },
    });
    expect([pix.status, pix.body.error]).toEqual([503, 'provider_unavailable']);
    const card = await http(t.url, 'POST', `/checkout/${link.body.slug}/payments`, {
      method: 'CARD',
      payer: { name: 'Ana', email: 'a@x.com' },
      card: { number: '4111111111111111', expMonth: 12, expYear: 2035, cvv: '123', holderName: 'ANA' },
    });
    expect(card.body).toMatchObject({ status: 'FAILED', reason: 'acquirer_unavailable', paid: false });
    const d = (await http(t.url, 'GET', `/v1/acquiring/links/${link.body.linkId}`, undefined, a.auth)).body;
    expect(d).toMatchObject({ attemptCount: 1, paidCount: 0 });
    expect(d.payments.map((p: any) => p.status)).toEqual(['FAILED']);
  });
});
