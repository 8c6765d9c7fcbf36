import { http, startTestApp, TestApp } from '../support/test-app';
import { ProviderProxy } from '../support/provider-proxy';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';

/**
 * GET /v1/banking/accounts/{id}/limits: the rate-limit figures the gateway decided, the Pix
 * limits the bank holds (the sandbox bank, over real HTTP through a switchable hop).
 */
describe('account limits: the Pix figures come from the bank', () => {
  let t: TestApp;
  let o: OnboardedTenant;
  const proxy = new ProviderProxy();
  const limits = () => http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth);
  const bankCalls = () => proxy.calls;

  beforeAll(async () => {
    const origin = await proxy.start();
    t = await startTestApp({
      env: {
        PROVIDER_URL: `${origin}/sandbox/bank`,
        SANDBOX_PIX_LIMIT_PER_TRANSACTION_CENTS: '123456',
        SANDBOX_PIX_LIMIT_DAYTIME_CENTS: '7890000',
        SANDBOX_PIX_LIMIT_NIGHTTIME_CENTS: '45600',
        ACCOUNT_LIMITS_CACHE_MS: '300',
        ACCOUNT_LIMITS_STALE_MS: '1500',
      },
    });
    proxy.target = t.sandboxUrl;
    o = await onboardTenant(t, { rateLimitPerMinute: 1000 });
  });
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it("answers the bank's figures (not defaults) beside the rate-limit figures, asking the bank once per cache period", async () => {
    proxy.mode = 'up';
    const before = bankCalls();
    const r = await limits();
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      accountId: o.tenantId,
      tenantId: o.tenantId,
      rateLimit: { limit: 1000, remaining: expect.any(Number), resetSeconds: expect.any(Number), windowSeconds: 60 },
      pix: { perTransaction: 123456, daytime: 7890000, nighttime: 45600 },
    });
    // concurrent readers within the cache period share the one answer
    await Promise.all(Array.from({ length: 5 }, limits));
    expect(bankCalls() - before).toBe(1);
    await new Promise((res) => setTimeout(res, 350));
    await limits();
    expect(bankCalls() - before).toBe(2);
  });

  it('keeps answering the last figures while the bank is down, for the stale period only; then 500 provider_unavailable; back when the bank is', async () => {
    proxy.mode = 'up';
    await new Promise((res) => setTimeout(res, 350));
    expect((await limits()).status).toBe(200); // fresh answer kept
    proxy.mode = 'down';
    await new Promise((res) => setTimeout(res, 350)); // past the cache period
    const stale = await limits();
    expect(stale.status).toBe(200);
    expect(stale.body.pix).toEqual({ perTransaction: 123456, daytime: 7890000, nighttime: 45600 });
    await new Promise((res) => setTimeout(res, 1600)); // past the stale period too
    const down = await limits();
    expect(down.status).toBe(500);
    expect(down.body).toMatchObject({ error: 'provider_unavailable', requestId: expect.any(String) });
    const ready = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
    expect(Object.keys(ready.body.details.circuitBreakers)).toContain('bank.getAccountLimits');
    proxy.mode = 'up';
    // the breaker may have opened; it lets a trial through after its reset timeout
    const until = Date.now() + 15_000;
    let back = await limits();
    while (back.status !== 200 && Date.now() < until) {
      await new Promise((res) => setTimeout(res, 250));
      back = await limits();
    }
    expect(back.status).toBe(200);
    expect(back.body.pix.perTransaction).toBe(123456);
  }, 30_000);

  it('answers 404 account_not_found for another account id, without asking the bank', async () => {
    const before = bankCalls();
    const r = await http(t.url, 'GET', '/v1/banking/accounts/00000000-0000-4000-8000-000000000000/limits', undefined, o.auth);
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('account_not_found');
    expect(bankCalls()).toBe(before);
  });
});
