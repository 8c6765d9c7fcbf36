import { http, TestApp } from '../support/test-app';
import { ProviderProxy } from '../support/provider-proxy';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { startPixApp } from '../pix-automatic/support';
import { recurrenceBody } from '../support/fixtures';

/**
 * The bank's circuit breaker is shared by every tenant, so a tenant's bad input must
 * never count against it. A hop in front of the sandbox bank refuses ACME's recurrences with
 * 400 (what a bank answers to input it will not take); the breaker stays closed and Beta keeps
 * creating. The last case shows the same traffic answered 503 does open it: the first case
 * would fail if refusals counted as failures.
 */
describe("one tenant's refused input does not open the bank breaker for another", () => {
  jest.setTimeout(60_000);
  let t: TestApp;
  let acme: OnboardedTenant;
  let beta: OnboardedTenant;
  const proxy = new ProviderProxy();
  const create = (who: OnboardedTenant) => http(t.url, 'POST', '/v1/banking/pix/automatic/recurrences', recurrenceBody(), who.auth);
  const breaker = async () =>
    (await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey })).body.details.circuitBreakers[
      'bank.createRecurrence'
    ];
  const acmeAnswer = (status: number) => (_req: unknown, raw: string) =>
    raw.includes(acme.tenantId)
      ? { status, body: { error: status === 400 ? 'invalid_request' : 'unavailable', message: 'refused' } }
      : null;

  beforeAll(async () => {
    const origin = await proxy.start();
    t = await startPixApp({ env: { PROVIDER_URL: `${origin}/sandbox/bank`, PROVIDER_RETRY_DELAYS_MS: '10' } });
    proxy.target = t.sandboxUrl;
    acme = await onboardTenant(t, { name: 'ACME', rateLimitPerMinute: 100000 });
    beta = await onboardTenant(t, { name: 'Beta', rateLimitPerMinute: 100000 });
  });
  afterAll(async () => {
    await t?.close();
    await proxy.close();
  });

  it('20 refusals for ACME: each answered provider_error, the breaker closed, Beta served', async () => {
    proxy.rule = acmeAnswer(400);
    for (let i = 0; i < 20; i++) {
      const r = await create(acme);
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 500, error: 'provider_error' });
    }
    expect(await breaker()).toBe('closed');
    const ok = await create(beta);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('PENDING');
    expect((await t.sql(`SELECT count(*)::int AS n FROM pix_recurrences WHERE tenant_id = $1`, [acme.tenantId]))[0].n).toBe(0);
  });

  it('the same traffic answered 503 opens the breaker, and then Beta is refused too (why refusals must not count)', async () => {
    proxy.rule = acmeAnswer(503);
    for (let i = 0; i < 60 && (await breaker()) !== 'open'; i++) {
      const r = await create(acme);
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 500, error: 'provider_unavailable' });
    }
    expect(await breaker()).toBe('open');
    const refused = await create(beta);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 500, error: 'provider_unavailable' });
  });
});
