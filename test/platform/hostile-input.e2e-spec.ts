import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';

const PROVIDER_KEY = 'hostile-provider-key-0123456789abcdef';

/** Reproductions of hostile input that once answered 500, each now a clear 4xx in the envelope, never a 500, nothing half-written. */
describe('hostile input gets a clear 4xx in the envelope', () => {
  jest.setTimeout(60_000);
  let t: TestApp;
  let acme: OnboardedTenant;
  const admin = () => ({ 'X-Admin-Key': t.adminKey });
  const envelope = (r: { status: number; body: any }, status: number, error: string) => {
    expect({ status: r.status, error: r.body?.error }).toEqual({ status, error });
    expect(typeof r.body.requestId).toBe('string');
    expect(typeof r.body.message).toBe('string');
  };

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_API_KEY: PROVIDER_KEY, PROVIDER_RETRY_DELAYS_MS: '10', ACQUIRER_RETRY_DELAYS_MS: '10' } });
    acme = await onboardTenant(t, { name: 'ACME', rateLimitPerMinute: 100000 });
  });
  afterAll(() => t?.close());

  describe('NUL and other control characters', () => {
    it('the public token route', async () => {
      const r = await http(t.url, 'POST', '/v1/oauth/token', {
        client_id: 'a\u0000b',
        client_secret: 'x',
        grant_type: 'client_credentials',
      });
      envelope(r, 400, 'validation_error');
      expect(r.body.details).toEqual([expect.objectContaining({ field: 'client_id', code: 'control_characters' })]);
    });
    it('fee simulation, tenant creation, recurrence creation (the bank is never asked)', async () => {
      envelope(
        await http(t.url, 'POST', '/v1/acquiring/fees/simulate', { amount: 10, paymentMethod: 'CARD', merchantId: 'm\u0000' }, acme.auth),
        400,
        'validation_error',
      );
      const before = (await t.sql(`SELECT count(*)::int AS n FROM tenants`))[0].n;
      envelope(
        await http(t.url, 'POST', '/admin/tenants', { name: 'x\u0000y', allowedCidrs: ['127.0.0.1/32'] }, admin()),
        400,
        'validation_error',
      );
      expect((await t.sql(`SELECT count(*)::int AS n FROM tenants`))[0].n).toBe(before);
      const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
      for (const field of ['payerName', 'description']) {
        const body: any = {
          amount: 10,
          currency: 'BRL',
          periodicity: 'MONTHLY',
          firstDueDate: day,
          payerName: 'Maria',
          payerTaxId: '52998224725',
          description: 'Plano',
        };
        body[field] = 'a\u0000b';
        const r = await http(t.url, 'POST', '/v1/banking/pix/automatic/recurrences', body, acme.auth);
        envelope(r, 400, 'validation_error');
        expect(r.body.details[0].field).toBe(field);
      }
      expect((await t.sql(`SELECT count(*)::int AS n FROM sandbox_bank_recurrences`))[0].n).toBe(0);
    });
    it('in a query string and a path', async () => {
      envelope(
        await http(t.url, 'GET', '/v1/banking/pix/automatic/recurrences?payerTaxId=%00', undefined, acme.auth),
        400,
        'validation_error',
      );
      envelope(await http(t.url, 'GET', '/v1/acquiring/links/%00', undefined, acme.auth), 400, 'validation_error');
    });
  });

  describe('explicit null where the API does not say null', () => {
    it.each([{ allowedCidrs: null }, { name: null }, { status: null }, { rateLimitPerMinute: null }])(
      'PATCH /admin/tenants/{id} %j',
      async (body) => {
        const r = await http(t.url, 'PATCH', `/admin/tenants/${acme.tenantId}`, body, admin());
        envelope(r, 400, 'validation_error');
        expect(r.body.details[0].field).toBe(Object.keys(body)[0]);
      },
    );
  });

  describe('nested objects validated to the leaves', () => {
    it.each([{}, [], [{}], { CARD: {}, PIX: {}, BOLETO: {} }])('merchant fees %j', async (fees) => {
      const r = await http(
        t.url,
        'POST',
        `/admin/tenants/${acme.tenantId}/merchants`,
        { name: 'Parceiro', taxId: '11222333000181', fees },
        admin(),
      );
      envelope(r, 400, 'validation_error');
    });
    it("the document's own example body for that route is answered, not a 500", async () => {
      const doc = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '../../openapi.json'), 'utf8'));
      const ref = doc.paths['/admin/tenants/{tenantId}/merchants'].post.requestBody.content['application/json'].schema.$ref
        .split('/')
        .pop();
      const props = doc.components.schemas[ref].properties;
      const example = Object.fromEntries(
        Object.entries<any>(props)
          .filter(([, p]) => p.example !== undefined)
          .map(([k, p]) => [k, p.example]),
      );
      const r = await http(t.url, 'POST', `/admin/tenants/${acme.tenantId}/merchants`, example, admin());
      expect(r.status).toBeLessThan(500);
    });
  });

  describe('the public checkout', () => {
    let slug: string;
    beforeAll(async () => {
      const l = await http(t.url, 'POST', '/v1/acquiring/links', { name: 'Aberto', paymentMethods: ['PIX', 'CARD'] }, acme.auth);
      slug = l.body.slug;
    });
    const payer = { name: 'Ana Souza', email: 'ana@example.com' };
    it('amount null and amount 1e308 are 400', async () => {
      envelope(await http(t.url, 'POST', `/checkout/${slug}/payments`, { method: 'PIX', amount: null, payer }), 400, 'validation_error');
      const huge = await http(
        t.url,
        'POST',
        `/checkout/${slug}/payments`,
        '{"method":"PIX","amount":1e308,"payer":{"name":"Ana Souza","email":"ana@example.com"}}',
        { 'content-type': 'application/json' },
      );
      expect(huge.status).toBe(400);
      expect(huge.body.requestId).toBeDefined();
    });
    it('a repeated attemptId answers the first attempt, or 409 when the body differs', async () => {
      const attemptId = '5b1e3c2a-9d8f-4e7a-8b6c-1a2b3c4d5e6f';
      const first = await http(t.url, 'POST', `/checkout/${slug}/payments`, { method: 'PIX', amount: 20, payer, attemptId });
      expect(first.status).toBe(201);
      const again = await http(t.url, 'POST', `/checkout/${slug}/payments`, { method: 'PIX', amount: 20, payer, attemptId });
      expect(again.status).toBe(201);
      expect(again.body.paymentId).toBe(first.body.paymentId);
      const other = await http(t.url, 'POST', `/checkout/${slug}/payments`, { method: 'PIX', amount: 30, payer, attemptId });
      envelope(other, 409, 'attempt_conflict');
      const l2 = await http(t.url, 'POST', '/v1/acquiring/links', { name: 'Outro', paymentMethods: ['PIX'] }, acme.auth);
      const elsewhere = await http(t.url, 'POST', `/checkout/${l2.body.slug}/payments`, { method: 'PIX', amount: 20, payer, attemptId });
      envelope(elsewhere, 409, 'attempt_conflict');
      expect((await t.sql(`SELECT count(*)::int AS n FROM links_payments WHERE id = $1`, [attemptId]))[0].n).toBe(1);
    });
  });

  describe("Fastify's own errors come out in the envelope", () => {
    it('a path parameter over the length limit', async () => {
      const r = await http(t.url, 'GET', `/v1/acquiring/links/${'a'.repeat(600)}`, undefined, acme.auth);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(r.body.requestId).toBeDefined();
      expect(r.body.error).toMatch(/^[a-z_]+$/);
    });
    it('bad percent-encoding, an unsupported content type, a body too large', async () => {
      const bad = await http(t.url, 'GET', '/v1/acquiring/links/%E0%A4%A', undefined, acme.auth);
      expect(bad.status).toBe(400);
      expect(bad.body.requestId).toBeDefined();
      const xml = await http(t.url, 'POST', '/v1/acquiring/links', '<link/>', { ...acme.auth, 'content-type': 'application/xml' });
      envelope(xml, 415, 'unsupported_media_type');
      const big = await http(t.url, 'POST', '/v1/acquiring/links', JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }), {
        ...acme.auth,
        'content-type': 'application/json',
      });
      envelope(big, 413, 'payload_too_large');
    });
  });

  describe('found by the schema-driven fuzz', () => {
    const day = () => new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    it('an amount in exponent form (1e-7) or beyond what money.ts holds is 400 naming the field', async () => {
      for (const amount of [1e-7, 1e308, 10.001]) {
        const r = await http(t.url, 'POST', '/v1/acquiring/fees/simulate', { amount, paymentMethod: 'CARD' }, acme.auth);
        envelope(r, 400, 'validation_error');
        expect(r.body.details[0].field).toBe('amount');
      }
    });
    it('offset empty, not a number, or beyond the largest page start is 400', async () => {
      for (const q of ['offset=', 'offset=0x10', 'offset=99999999999999999999', 'offset=1e308', 'limit=1&limit=2']) {
        envelope(await http(t.url, 'GET', `/v1/acquiring/links?${q}`, undefined, acme.auth), 400, 'validation_error');
      }
    });
    it('a body nested 4000 deep, or a bare JSON null, is 400 before any code walks it', async () => {
      const deep = await http(t.url, 'POST', '/v1/acquiring/links', '['.repeat(4000) + ']'.repeat(4000), {
        ...acme.auth,
        'content-type': 'application/json',
      });
      envelope(deep, 400, 'validation_error');
      const nul = await http(t.url, 'PATCH', `/admin/tenants/${acme.tenantId}`, 'null', { ...admin(), 'content-type': 'application/json' });
      envelope(nul, 400, 'validation_error');
    });
    it('a lone surrogate in a string is 400 (it is not a character)', async () => {
      const r = await http(
        t.url,
        'POST',
        '/v1/acquiring/links',
        '{"name":"x","paymentMethods":["PIX"],"actor":{"email":"a\\ud800@x.com"}}',
        { ...acme.auth, 'content-type': 'application/json' },
      );
      envelope(r, 400, 'validation_error');
      expect(r.body.details[0]).toMatchObject({ field: 'actor.email', code: 'invalid_unicode' });
    });
    it('a nested object given as an array is 400', async () => {
      const l = await http(t.url, 'POST', '/v1/acquiring/links', { name: 'Ator', paymentMethods: ['PIX'] }, acme.auth);
      envelope(await http(t.url, 'PATCH', `/v1/acquiring/links/${l.body.linkId}`, { actor: [] }, acme.auth), 400, 'validation_error');
    });
    it('NUL in the path of the public checkout is 400 before its guard looks the link up', async () => {
      envelope(
        await http(t.url, 'POST', '/checkout/%00/payments', {
          method: 'PIX',
          amount: 10,
          payer: { name: 'Ana', email: 'ana@example.com' },
        }),
        400,
        'validation_error',
      );
    });
    it('a query string that is not valid percent-encoding is 400, a single parameter given twice too', async () => {
      envelope(await http(t.url, 'GET', '/v1/acquiring/links?status=%E0%A4%A', undefined, acme.auth), 400, 'bad_request');
      const s = await http(t.url, 'POST', '/v1/acquiring/card-sessions', { documentId: '11222333000181' }, acme.auth);
      const page = new URL(s.body.hostedCardUrl);
      envelope(await http(t.url, 'GET', `${page.pathname}${page.search}&lang=en&lang=pt-BR`), 400, 'validation_error');
    });
    it("the sandbox bank's API: an impossible date or amount is 400, another recurrence's idTx 409", async () => {
      const key = { 'X-Provider-Key': PROVIDER_KEY };
      const rec = (over: object) => ({
        recurrenceId: `r-${Math.random()}`,
        idTx: `RR${Date.now()}${Math.floor(Math.random() * 1e6)}`,
        receiver: { id: acme.tenantId, name: 'ACME' },
        amountCents: 4990,
        currency: 'BRL',
        periodicity: 'MONTHLY',
        firstDueDate: day(),
        dayAdjustment: 'KEEP_DUE_DATE',
        payerName: 'Maria',
        payerTaxId: '52998224725',
        ...over,
      });
      envelope(
        await http(t.sandboxUrl, 'POST', '/sandbox/bank/recurrences', rec({ firstDueDate: '2026-02-30' }), key),
        400,
        'validation_error',
      );
      envelope(await http(t.sandboxUrl, 'POST', '/sandbox/bank/recurrences', rec({ amountCents: 1e308 }), key), 400, 'validation_error');
      const first = rec({});
      expect((await http(t.sandboxUrl, 'POST', '/sandbox/bank/recurrences', first, key)).status).toBe(201);
      envelope(await http(t.sandboxUrl, 'POST', '/sandbox/bank/recurrences', { ...first, recurrenceId: 'another' }, key), 409, 'conflict');
    });
  });
});
