import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant } from '../support/tenant-auth';

describe('onboarding smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('runs the whole flow and calls an authenticated route', async () => {
    const o = await onboardTenant(t);
    const r = await http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ accountId: o.tenantId, rateLimit: { limit: 100, remaining: 99 } });
    expect(r.headers.get('ratelimit-limit')).toBe('100');
  });
});
