import { http, startTestApp, TestApp } from '../support/test-app';
import { decodeJwt, eventually, freshRateWindow, handSignedJwt, onboardTenant, OnboardedTenant, rsaPair } from '../support/tenant-auth';

const KEYS = { k1: 'first-signing-secret-0123456789abcdef', k2: 'second-signing-secret-0123456789abcdef' };
const limitsOf = (t: TestApp, o: OnboardedTenant, headers: Record<string, string> = o.auth) =>
  http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, headers);
const admin = (t: TestApp) => ({ 'X-Admin-Key': t.adminKey });

describe('gateway guard chain', () => {
  let t: TestApp;
  let o: OnboardedTenant;
  beforeAll(async () => {
    t = await startTestApp({ env: { JWT_SIGNING_KEYS: `k1:${KEYS.k1}` } });
    o = await onboardTenant(t);
  });
  afterAll(() => t.close());

  describe('bearer token', () => {
    it("answers the account limits for a good token, 404 for an account that is not the tenant's", async () => {
      const r = await limitsOf(t, o);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        accountId: o.tenantId,
        tenantId: o.tenantId,
        rateLimit: {
          limit: 100,
          remaining: Number(r.headers.get('ratelimit-remaining')),
          resetSeconds: expect.any(Number),
          windowSeconds: 60,
        },
        pix: { perTransaction: expect.any(Number), daytime: expect.any(Number), nighttime: expect.any(Number) },
      });
      const other = await http(t.url, 'GET', '/v1/banking/accounts/00000000-0000-4000-8000-000000000000/limits', undefined, o.auth);
      expect(other.status).toBe(404);
      expect(other.body.error).toBe('account_not_found');
    });

    it.each([
      ['no Authorization header', {}],
      ['a non-Bearer scheme', { Authorization: 'Basic abc' }],
      ['garbage', { Authorization: 'Bearer not.a.jwt' }],
      ['a token with a bad signature', { Authorization: 'Bearer SIG' }],
      ['a token signed with an unknown secret', { Authorization: 'Bearer FOREIGN' }],
      ['an alg=none token', { Authorization: 'Bearer NONE' }],
    ])('refuses %s with 401 invalid_token', async (_what, h: Record<string, string>) => {
      const headers = { ...h };
      if (headers.Authorization === 'Bearer SIG')
        headers.Authorization = `Bearer ${o.token.slice(0, -4)}${o.token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
      if (headers.Authorization === 'Bearer FOREIGN')
        headers.Authorization = `Bearer ${handSignedJwt('k1', 'some-other-secret-0123456789abcdef', decodeJwt(o.token).claims)}`;
      if (headers.Authorization === 'Bearer NONE') {
        const p = o.token.split('.')[1];
        headers.Authorization = `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`;
      }
      const r = await limitsOf(t, o, headers);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ statusCode: 401, error: 'invalid_token' });
      expect(r.headers.get('www-authenticate')).toContain('Bearer');
    });

    it('refuses a token older than one hour with 401 expired_token', async () => {
      const now = Math.floor(Date.now() / 1000);
      const claims = { ...decodeJwt(o.token).claims, iat: now - 3601, exp: now - 1 };
      const r = await limitsOf(t, o, { Authorization: `Bearer ${handSignedJwt('k1', KEYS.k1, claims)}` });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('expired_token');
      // younger than an hour still works: the check is on exp, with the real signing key (a few
      // seconds of margin, from a fresh clock: exp = now + 1 expired if the first call crossed a second)
      const later = Math.floor(Date.now() / 1000);
      const fresh = { ...claims, iat: later - 3595, exp: later + 5 };
      expect((await limitsOf(t, o, { Authorization: `Bearer ${handSignedJwt('k1', KEYS.k1, fresh)}` })).status).toBe(200);
    });
  });

  describe('IP allow-list', () => {
    it('refuses a tenant route and the setup routes from an IP off the list with 403 ip_not_allowed and the IP seen', async () => {
      const x = await onboardTenant(t);
      await http(t.url, 'PATCH', `/admin/tenants/${x.tenantId}`, { allowedCidrs: ['203.0.113.0/24'] }, admin(t));
      await eventually(async () => (await limitsOf(t, x)).status === 403, 3000);
      const r = await limitsOf(t, x);
      expect(r.body).toMatchObject({ statusCode: 403, error: 'ip_not_allowed', ip: '127.0.0.1' });
      const up = await http(t.url, 'POST', `/v1/tenants/${x.tenantId}/keys`, { publicKey: rsaPair().publicKey });
      expect(up.status).toBe(403);
      expect(up.body).toMatchObject({ error: 'ip_not_allowed', ip: '127.0.0.1' });
      for (const path of ['challenge', 'verify', 'credentials']) {
        const s = await http(
          t.url,
          'POST',
          `/v1/tenants/${x.tenantId}/keys/${x.keyId}/${path}`,
          path === 'verify' ? { challenge: 'x', signature: 'AA==' } : undefined,
        );
        expect(s.status).toBe(403);
      }
      const tok = await http(t.url, 'POST', '/v1/oauth/token', {
        grant_type: 'client_credentials',
        client_id: x.clientId,
        client_secret: x.clientSecret,
      });
      expect(tok.status).toBe(403);
      expect(tok.body.ip).toBe('127.0.0.1');
      // a forged X-Forwarded-For from this (untrusted) peer changes nothing
      const forged = await limitsOf(t, x, { ...x.auth, 'X-Forwarded-For': '203.0.113.9' });
      expect(forged.status).toBe(403);
      expect(forged.body.ip).toBe('127.0.0.1');
    });
  });

  describe('tenant status', () => {
    it("refuses a suspended tenant's token and setup calls with 403 tenant_suspended, and serves it again when reactivated", async () => {
      const x = await onboardTenant(t);
      await http(t.url, 'PATCH', `/admin/tenants/${x.tenantId}`, { status: 'SUSPENDED' }, admin(t));
      await eventually(async () => (await limitsOf(t, x)).status === 403, 3000);
      expect((await limitsOf(t, x)).body.error).toBe('tenant_suspended');
      expect((await http(t.url, 'POST', `/v1/tenants/${x.tenantId}/keys/${x.keyId}/challenge`)).body.error).toBe('tenant_suspended');
      await http(t.url, 'PATCH', `/admin/tenants/${x.tenantId}`, { status: 'ACTIVE' }, admin(t));
      await eventually(async () => (await limitsOf(t, x)).status === 200, 3000);
    });
  });

  describe('rate limit', () => {
    it('lets 100 requests a minute pass by default, refuses the 101st with 429 and RateLimit-* on every answer', async () => {
      const x = await onboardTenant(t);
      await freshRateWindow(5000);
      const answers = [];
      for (let i = 0; i < 101; i++) answers.push(await limitsOf(t, x));
      answers.slice(0, 100).forEach((r, i) => {
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-limit')).toBe('100');
        expect(r.headers.get('ratelimit-remaining')).toBe(String(99 - i));
        expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      });
      const last = answers[100];
      expect(last.status).toBe(429);
      expect(last.body).toMatchObject({ statusCode: 429, error: 'rate_limited' });
      expect(last.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(last.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      // error answers of counted requests carry the headers too
      const notFound = await http(t.url, 'GET', '/v1/banking/accounts/nope/limits', undefined, o.auth);
      expect(notFound.status).toBe(404);
      expect(notFound.headers.get('ratelimit-limit')).toBe('100');
    });

    it('applies a per-tenant override and counts each tenant apart', async () => {
      const small = await onboardTenant(t, { rateLimitPerMinute: 3 });
      await freshRateWindow();
      const s = [];
      for (let i = 0; i < 4; i++) s.push((await limitsOf(t, small)).status);
      expect(s).toEqual([200, 200, 200, 429]);
      expect((await limitsOf(t, o)).status).toBe(200);
    });

    it('gives the setup routes a tighter limit of their own', async () => {
      // onboarding inside the same fixed window as the calls below, so its 3 setup calls count there
      await freshRateWindow();
      const x = await onboardTenant(t);
      const statuses = [];
      for (let i = 0; i < 31; i++) statuses.push((await http(t.url, 'POST', `/v1/tenants/${x.tenantId}/keys/${x.keyId}/challenge`)).status);
      // onboarding spent 3 of the 30
      expect(statuses.filter((s) => s === 200)).toHaveLength(27);
      expect(statuses.slice(27)).toEqual([429, 429, 429, 429]);
      expect((await limitsOf(t, x)).status).toBe(200);
    });
  });
});

describe('trusted proxies (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '127.0.0.1/32,::1/128' } });
  });
  afterAll(() => t.close());

  it('believes X-Forwarded-For only from a listed proxy, and takes the first untrusted hop', async () => {
    const x = await onboardTenant(t, { allowedCidrs: ['127.0.0.1/32', '198.51.100.0/24'] });
    const viaProxy = await limitsOf(t, x, { ...x.auth, 'X-Forwarded-For': '198.51.100.20' });
    expect(viaProxy.status).toBe(200);
    const outside = await limitsOf(t, x, { ...x.auth, 'X-Forwarded-For': '203.0.113.5' });
    expect(outside.status).toBe(403);
    expect(outside.body.ip).toBe('203.0.113.5');
    // a client forging an allowed address in front of its own: the proxy appended the real one
    const forged = await limitsOf(t, x, { ...x.auth, 'X-Forwarded-For': '198.51.100.20, 203.0.113.5' });
    expect(forged.status).toBe(403);
    expect(forged.body.ip).toBe('203.0.113.5');
  });
});

describe('revocation and signing-key rotation across replicas', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ env: { JWT_SIGNING_KEYS: `k1:${KEYS.k1}` } });
    b = await startTestApp({ databaseUrl: a.databaseUrl, env: { JWT_SIGNING_KEYS: `k2:${KEYS.k2},k1:${KEYS.k1}` } });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it("a revoked key's tokens fail on every replica within 5 s (here ≤ 2 s), its credentials too", async () => {
    const x = await onboardTenant(a);
    const other = await onboardTenant(a);
    expect((await limitsOf(b, x)).status).toBe(200);
    const rev = await http(a.url, 'POST', `/admin/tenants/${x.tenantId}/keys/${x.keyId}/revoke`, undefined, admin(a));
    expect(rev.status).toBe(200);
    expect(rev.body).toMatchObject({ keyId: x.keyId, status: 'REVOKED', revokedAt: expect.any(String) });
    const onA = await limitsOf(a, x);
    expect(onA.status).toBe(401);
    expect(onA.body.error).toBe('invalid_token');
    const elapsed = await eventually(async () => (await limitsOf(b, x)).status === 401, 5000, 50);
    expect(elapsed).toBeLessThanOrEqual(2500);
    const tok = await http(b.url, 'POST', '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: x.clientId,
      client_secret: x.clientSecret,
    });
    expect(tok.status).toBe(401);
    expect(tok.body.error).toBe('invalid_client');
    expect((await http(a.url, 'POST', `/v1/tenants/${x.tenantId}/keys/${x.keyId}/credentials`)).body.error).toBe('key_revoked');
    // other keys are untouched
    expect((await limitsOf(b, other)).status).toBe(200);
    expect(
      (await http(a.url, 'POST', `/admin/tenants/${x.tenantId}/keys/00000000-0000-4000-8000-000000000000/revoke`, undefined, admin(a)))
        .status,
    ).toBe(404);
  });

  it('the newest key signs (kid in the header), older keys still verify, a dropped key does not', async () => {
    const x = await onboardTenant(a);
    expect(decodeJwt(x.token).header.kid).toBe('k1');
    expect((await limitsOf(b, x)).status).toBe(200);
    const newer = await http(b.url, 'POST', '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: x.clientId,
      client_secret: x.clientSecret,
    });
    expect(decodeJwt(newer.body.access_token).header.kid).toBe('k2');
    expect((await limitsOf(b, x, { Authorization: `Bearer ${newer.body.access_token}` })).status).toBe(200);
    // replica a does not know k2 yet (mid-rollout): k2 tokens are refused there
    expect((await limitsOf(a, x, { Authorization: `Bearer ${newer.body.access_token}` })).status).toBe(401);
    const c = await startTestApp({ databaseUrl: a.databaseUrl, env: { JWT_SIGNING_KEYS: `k2:${KEYS.k2}` } });
    try {
      expect((await limitsOf(c, x)).status).toBe(401);
      expect((await limitsOf(c, x, { Authorization: `Bearer ${newer.body.access_token}` })).status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
