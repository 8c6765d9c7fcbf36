import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { casesFor, CaseContext, FuzzCase, Operation, randomCasesFor } from '../support/fuzz/cases';
import { formatReport, runCases } from '../support/fuzz/runner';
import { prng, Schemas } from '../support/fuzz/schema-values';
import { futureDay, recurrenceBody } from '../support/fixtures';
import { OpenApiValidator } from '../support/openapi-validator';
import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';

/**
 * The schema-driven fuzz (hand-written reproductions find only the holes someone thought of):
 * every operation of the committed openapi.json, each field missing, null, wrong-typed,
 * oversized, with control characters and boundary values, malformed bodies and content types, hostile path and query parameters, plus seeded random values. Rules:
 * no 5xx, no 4xx outside the error envelope, no 2xx for input the document (or the input
 * boundary: no control characters) forbids. `npm test` runs a fixed-seed sample (FUZZ_REQUESTS,
 * default 1500); `npm run fuzz` runs 10 000 and prints the counts per status.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const NOBODY = '00000000-0000-4000-8000-000000000000';
const PROVIDER_KEY = 'fuzz-provider-key-0123456789abcdef';

describe('schema-driven fuzz of every operation', () => {
  jest.setTimeout(Math.max(300_000, REQUESTS * 100));
  let t: TestApp;
  let acme: OnboardedTenant;
  let beta: OnboardedTenant;
  let gamma: OnboardedTenant;
  const ids: Record<string, string> = {};
  const v = new OpenApiValidator();

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        PROVIDER_API_KEY: PROVIDER_KEY,
        PROVIDER_RETRY_DELAYS_MS: '10',
        ACQUIRER_RETRY_DELAYS_MS: '10',
        SETUP_RATE_LIMIT_PER_MINUTE: '100000',
        TOKEN_RATE_LIMIT_PER_MINUTE: '100000',
        TOKEN_IP_RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    acme = await onboardTenant(t, { name: 'ACME Fuzz', rateLimitPerMinute: 100000 });
    beta = await onboardTenant(t, { name: 'Beta (admin routes)', rateLimitPerMinute: 100000 });
    gamma = await onboardTenant(t, { name: 'Gamma (key routes)', rateLimitPerMinute: 100000 });
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = acme.auth) =>
      http(t.url, method, path, body, headers);
    const rec = await call('POST', '/v1/banking/pix/automatic/recurrences', recurrenceBody());
    ids.recurrenceId = rec.body.recurrenceId;
    await http(t.sandboxUrl, 'POST', `/sandbox/recurrences/${ids.recurrenceId}/approve`);
    await call('POST', `/v1/banking/pix/automatic/recurrences/${ids.recurrenceId}/refresh`);
    const billing = await call('POST', '/v1/banking/pix/automatic/billings', {
      recurrenceId: ids.recurrenceId,
      amount: 10.5,
      currency: 'BRL',
      dueDate: futureDay(5),
    });
    ids.billingId = billing.body?.id;
    const link = await call('POST', '/v1/acquiring/links', {
      name: 'Ingresso',
      paymentMethods: ['CARD', 'PIX', 'BOLETO'],
      maxInstallments: 3,
    });
    ids.linkId = link.body.linkId;
    ids.slug = link.body.slug;
    const payer = { name: 'Ana Souza', email: 'ana@example.com', taxId: '52998224725' };
    const pix = await call('POST', `/checkout/${ids.slug}/payments`, { method: 'PIX', amount: 20, payer }, {});
    ids.checkoutPaymentId = pix.body.paymentId;
    ids.txid = pix.body.pix?.txid;
    const boleto = await call('POST', `/checkout/${ids.slug}/payments`, { method: 'BOLETO', amount: 20, payer }, {});
    ids.boletoId = boleto.body.boleto?.boletoId;
    const session = await call('POST', '/v1/acquiring/card-sessions', { documentId: '11222333000181' });
    ids.sessionId = session.body.hostedCardSessionId;
    const tok = await call('POST', '/v1/acquiring/tokenize-card', {
      cardNumber: '4111111111111111',
      expirationMonth: '12',
      expirationYear: '2031',
      securityCode: '123',
    });
    const pay = await call('POST', '/v1/acquiring/payments', {
      amount: 150.75,
      tokenData: { slugToken: tok.body.slugToken },
      documentId: '11222333000181',
    });
    ids.cardPaymentId = pay.body.paymentId;
    await call('PUT', '/v1/banking/webhooks/acquiring', { url: 'https://merchant.example.com/hooks' });
    await call('PUT', '/v1/banking/webhooks/pix-automatic', { url: 'https://merchant.example.com/pix' });
    const deliveries = await call('GET', '/v1/banking/webhooks/deliveries?limit=1');
    ids.deliveryId = deliveries.body.items?.[0]?.id;
    for (const [k, x] of Object.entries(ids)) if (!x) throw new Error(`fixture ${k} was not made`);
  });
  afterAll(() => t?.close());

  const pathValue = (template: string, name: string): string => {
    if (name === 'tenantId') return template.startsWith('/admin') ? beta.tenantId : gamma.tenantId;
    if (name === 'keyId') return template.startsWith('/admin') ? beta.keyId : gamma.keyId;
    if (name === 'accountId') return acme.tenantId;
    if (name === 'paymentId') return template.startsWith('/checkout') ? ids.checkoutPaymentId : ids.cardPaymentId;
    if (name === 'id') return ids.boletoId;
    return ids[name] ?? NOBODY;
  };

  it(`answers ${REQUESTS} schema-derived bad requests with no 5xx, no 4xx outside the envelope and no 2xx for forbidden input`, async () => {
    const schemas = new Schemas(v.doc);
    const ctx: CaseContext = {
      schemas,
      validator: (s) => v.schemaValidator(s),
      pathValue,
      auth: (op): Record<string, string> => {
        const sec = Object.keys((op.security ?? [])[0] ?? {});
        // the sandbox bank's API: the shared key its documented header asks for
        if ((op.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'X-Provider-Key'))
          return { 'X-Provider-Key': PROVIDER_KEY };
        if (sec.includes('bearer')) return { ...acme.auth };
        if (sec.includes('adminKey')) return { 'X-Admin-Key': t.adminKey };
        return {};
      },
    };
    const ops: Operation[] = [];
    for (const [template, item] of Object.entries<any>(v.doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) if (item[method]) ops.push({ method, template, op: item[method] });
    }
    const rnd = prng(SEED);
    const fixed = shuffle(
      ops.flatMap((o) => casesFor(o, ctx)),
      rnd,
    );
    let cases: FuzzCase[];
    if (REQUESTS <= fixed.length) {
      // a sample that still calls every operation: its documented request first, then the rest
      const firsts = fixed.filter((c) => c.name === 'as documented');
      cases = [...firsts, ...fixed.filter((c) => c.name !== 'as documented').slice(0, Math.max(0, REQUESTS - firsts.length))];
    } else {
      // beyond the fixed cases: seeded random values, a round over every operation at a time
      const random: FuzzCase[] = [];
      while (fixed.length + random.length < REQUESTS)
        random.push(
          ...shuffle(
            ops.flatMap((o) => randomCasesFor(o, ctx, rnd, 10)),
            rnd,
          ),
        );
      cases = [...fixed, ...random].slice(0, REQUESTS);
    }
    const report = await runCases(t.url, cases, SEED);
    const text = formatReport(report);
    mkdirSync(join(__dirname, '../../test-artifacts'), { recursive: true });
    writeFileSync(join(__dirname, '../../test-artifacts/fuzz-report.json'), JSON.stringify(report, null, 2));
    writeFileSync(join(__dirname, '../../test-artifacts/fuzz-report.txt'), `${text}\n`);
    process.stdout.write(`\n${text}\n`);
    expect(report.requests).toBe(cases.length);
    expect(Object.keys(report.byOperation).length).toBe(ops.length);
    expect(report.violations).toEqual([]);
  });
});

function shuffle<T>(xs: T[], rnd: () => number): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}
