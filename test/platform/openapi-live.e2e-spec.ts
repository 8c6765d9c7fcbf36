import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { OpenApiValidator, RecordingProxy } from '../support/openapi-validator';

/**
 * The document tells the truth (clients generate code from it, so an answer it does not
 * describe breaks them). A walk through every domain goes through a
 * recording hop; each live answer (status, documented headers, JSON body) is validated against
 * the committed openapi.json by ajv, strict, formats on.
 */
describe('every live answer of the walks conforms to the committed OpenAPI document', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let proxy: RecordingProxy;
  let api: TestApp;
  let acme: OnboardedTenant;
  const v = new OpenApiValidator();

  beforeAll(async () => {
    t = await startTestApp({
      env: { BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0', PROVIDER_RETRY_DELAYS_MS: '20', ACQUIRER_RETRY_DELAYS_MS: '20' },
    });
    proxy = new RecordingProxy(t.url);
    api = { ...t, url: await proxy.start() };
    acme = await onboardTenant(api, { name: 'ACME Academia', rateLimitPerMinute: 100000 });
  });
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = acme.auth) =>
    http(api.url, method, path, body, headers);
  const admin: Record<string, string> = {};

  it('walks credentials, Pix Automático, links and checkout, cards, 3DS, webhooks, accounts, admin, health and errors', async () => {
    admin['X-Admin-Key'] = t.adminKey;
    await call('GET', '/health/live', undefined, {});
    await call('GET', '/health/ready', undefined, {});
    await call('GET', `/admin/tenants/${acme.tenantId}`, undefined, admin);
    await call('GET', '/admin/tenants?limit=5', undefined, admin);
    await call('PATCH', `/admin/tenants/${acme.tenantId}`, { rateLimitPerMinute: 100000 }, admin);
    await call('GET', `/admin/tenants/${acme.tenantId}/keys`, undefined, admin);
    await call(
      'POST',
      `/admin/tenants/${acme.tenantId}/merchants`,
      { name: 'Parceiro Logística', taxId: '11222333000181', isOwner: false },
      admin,
    );

    // Pix Automático
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const rec = await call('POST', '/v1/banking/pix/automatic/recurrences', {
      amount: 49.9,
      currency: 'BRL',
      periodicity: 'MONTHLY',
      firstDueDate: day(10),
      dayAdjustment: 'KEEP_DUE_DATE',
      payerName: 'Maria Souza',
      payerTaxId: '52998224725',
      description: 'Plano',
    });
    const id = rec.body.recurrenceId;
    await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${id}/approve`); // the sandbox app, outside the document
    await call('POST', `/v1/banking/pix/automatic/recurrences/${id}/refresh`, undefined);
    await call('GET', '/v1/banking/pix/automatic/recurrences?limit=10');
    const adhoc = await call('POST', '/v1/banking/pix/automatic/billings', {
      recurrenceId: id,
      amount: 10.5,
      currency: 'BRL',
      dueDate: day(5),
    });
    await call('GET', `/v1/banking/pix/automatic/recurrences/${id}/billings?limit=10`);
    if (adhoc.body?.id) await call('DELETE', `/v1/banking/pix/automatic/billings/${adhoc.body.id}`);
    await call('POST', `/v1/banking/pix/automatic/recurrences/${id}/cancel`, undefined);
    await call('GET', `/v1/banking/accounts/${acme.tenantId}/limits`);

    // links and the public checkout
    const link = await call('POST', '/v1/acquiring/links', {
      name: 'Ingresso',
      amount: 89.9,
      paymentMethods: ['CARD', 'PIX', 'BOLETO'],
      maxInstallments: 3,
    });
    await call('GET', `/v1/acquiring/links/${link.body.linkId}`);
    await call('GET', '/v1/acquiring/links?limit=5');
    await call('PATCH', `/v1/acquiring/links/${link.body.linkId}`, { name: 'Ingresso VIP' });
    await call('POST', '/v1/acquiring/fees/simulate', { amount: 100, installments: 3, paymentMethod: 'CARD' });
    await call('GET', '/v1/acquiring/merchants');
    await call('POST', `/checkout/${link.body.slug}/quote`, { amount: 89.9 }, {});
    const card = await call(
      'POST',
      `/checkout/${link.body.slug}/payments`,
      {
        method: 'CARD',
        attemptId: '0c9d2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
        installments: 3,
        payer: { name: 'Ana Souza', email: 'ana@example.com' },
        card: { number: '4242424242424242', expMonth: 11, expYear: 2034, cvv: '321', holderName: 'ANA SOUZA' },
      },
      {},
    );
    const pix = await call(
      'POST',
      `/checkout/${link.body.slug}/payments`,
      { method: 'PIX', attemptId: '1c9d2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f', payer: { name: 'Ana Souza', email: 'ana@example.com' } },
      {},
    );
    const boleto = await call(
      'POST',
      `/checkout/${link.body.slug}/payments`,
      {
        method: 'BOLETO',
        attemptId: '2c9d2f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
        payer: { name: 'Ana Souza', email: 'ana@example.com', taxId: '52998224725' },
      },
      {},
    );
    for (const p of [card, pix, boleto])
      if (p.body?.paymentId) await call('GET', `/checkout/${link.body.slug}/payments/${p.body.paymentId}`, undefined, {});
    await call('GET', `/v1/acquiring/links/${link.body.linkId}`);
    await call('PATCH', `/v1/acquiring/links/${link.body.linkId}/status`, { status: 'INACTIVE' });

    // cards and 3DS
    await call('GET', '/v1/acquiring/card-settings');
    await call('POST', '/v1/acquiring/card-sessions', { documentId: '11222333000181' });
    const tok = await call('POST', '/v1/acquiring/tokenize-card', {
      cardNumber: '4111111111111111',
      expirationMonth: '12',
      expirationYear: '2031',
      securityCode: '123',
    });
    await call('GET', '/v1/acquiring/stored-cards');
    const pay = await call('POST', '/v1/acquiring/payments', {
      amount: 150.75,
      installments: 3,
      tokenData: { slugToken: tok.body.slugToken },
      documentId: '11222333000181',
    });
    if (pay.body?.paymentId) {
      await call('GET', `/v1/acquiring/payments/${pay.body.paymentId}`);
      await call('POST', `/v1/acquiring/payments/${pay.body.paymentId}/capture`, {});
    }
    await call('GET', '/v1/acquiring/payments?limit=5');

    // webhooks
    await call('PUT', '/v1/banking/webhooks/acquiring', { url: 'https://merchant.example.com/hooks' });
    await call('GET', '/v1/banking/webhooks/acquiring');
    await call('PUT', '/v1/banking/webhooks/pix-automatic', { url: 'https://merchant.example.com/pix' });
    await call('GET', '/v1/banking/webhooks/pix-automatic');
    const deliveries = await call('GET', '/v1/banking/webhooks/deliveries?limit=5');
    if (deliveries.body?.items?.[0]) await call('GET', `/v1/banking/webhooks/deliveries/${deliveries.body.items[0].id}`);
    await call('DELETE', '/v1/banking/webhooks/acquiring');

    // errors
    await call('GET', '/v1/banking/pix/automatic/recurrences/00000000-0000-4000-8000-000000000000/billings');
    await call('POST', '/v1/banking/pix/automatic/recurrences', { amount: -1 });
    await call('GET', '/v1/acquiring/links', undefined, {});
    await call('POST', '/v1/oauth/token', { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'nothing' }, {});

    const json = proxy.seen.filter((r) => String(r.headers['content-type'] ?? '').includes('json'));
    expect(json.length).toBeGreaterThan(40);
    // every 2xx and error class seen, so the check covers both
    expect(new Set(json.map((r) => Math.floor(r.status / 100)))).toEqual(new Set([2, 4]));
    if (process.env.SHOW_WALK)
      console.log(
        proxy.seen
          .map(
            (r) =>
              `${r.method} ${r.path.split('?')[0]} ${r.status} ${r.status >= 400 || /links$/.test(r.path) ? JSON.stringify(r.body).slice(0, 300) : ''}`,
          )
          .join('\n'),
      );
    const problems = proxy.seen.flatMap((r) => v.check(r.method, r.path, r.status, r.headers, r.body));
    expect(problems).toEqual([]);
  });

  it('the check has teeth: a wrong type, a bad date and an unknown error code are caught', () => {
    const ok = { 'x-request-id': 'x', 'content-type': 'application/json' };
    expect(v.check('POST', '/v1/oauth/token', 200, { ...ok }, { access_token: 'a', token_type: 'Basic', expires_in: 3600.5 })).not.toEqual(
      [],
    );
    expect(
      v.check('GET', '/v1/acquiring/links', 401, ok, { statusCode: 401, error: 'no_such_code', message: 'x', requestId: 'r' }),
    ).not.toEqual([]);
    expect(v.check('GET', '/nowhere', 200, ok, {})).not.toEqual([]);
  });
});
