import { constants, privateDecrypt } from 'node:crypto';
import { http, startTestApp, TestApp } from '../support/test-app';
import { decodeJwt, freshRateWindow, oaepDecrypt, onboardTenant, OnboardedTenant, rsaPair } from '../support/tenant-auth';

describe('credentials and the token call', () => {
  let t: TestApp;
  let o: OnboardedTenant;
  const credUrl = () => `/v1/tenants/${o.tenantId}/keys/${o.keyId}/credentials`;
  const token = (body: unknown, headers: Record<string, string> = {}) => http(t.url, 'POST', '/v1/oauth/token', body, headers);

  beforeAll(async () => {
    t = await startTestApp({
      env: { SETUP_RATE_LIMIT_PER_MINUTE: '1000', TOKEN_RATE_LIMIT_PER_MINUTE: '1000', TOKEN_IP_RATE_LIMIT_PER_MINUTE: '1000' },
    });
    o = await onboardTenant(t);
  });
  afterAll(() => t.close());

  describe('credentials', () => {
    it('answers 409 key_not_verified before verification', async () => {
      const up = await http(t.url, 'POST', `/v1/tenants/${o.tenantId}/keys`, { publicKey: rsaPair().publicKey });
      const r = await http(t.url, 'POST', `/v1/tenants/${o.tenantId}/keys/${up.body.keyId}/credentials`);
      expect(r.status).toBe(409);
      expect(r.body.error).toBe('key_not_verified');
      const row = await t.sql('SELECT client_id, secret_hash FROM auth_keys WHERE id = $1', [up.body.keyId]);
      expect(row[0]).toEqual({ client_id: null, secret_hash: null });
    });

    it('encrypts with RSA-OAEP SHA-256, never PKCS#1 v1.5, and stores only a scrypt hash of the secret', async () => {
      const r = await http(t.url, 'POST', credUrl());
      expect(r.status).toBe(200);
      expect(Buffer.from(r.body.encryptedClientSecret, 'base64')).toHaveLength(256);
      const secret = oaepDecrypt(o.privateKeyPem, r.body.encryptedClientSecret);
      expect(oaepDecrypt(o.privateKeyPem, r.body.encryptedClientId)).toBe(o.clientId);
      // PKCS#1 v1.5 does not recover it: older OpenSSL throws, OpenSSL 3.2+ (Node 22 and 24) answers
      // implicit rejection's deterministic random bytes instead of an error
      let v15: string | null;
      try {
        v15 = privateDecrypt(
          { key: o.privateKeyPem, padding: constants.RSA_PKCS1_PADDING },
          Buffer.from(r.body.encryptedClientSecret, 'base64'),
        ).toString('utf8');
      } catch {
        v15 = null;
      }
      expect(v15).not.toBe(secret);
      expect(() =>
        privateDecrypt(
          { key: o.privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
          Buffer.from(r.body.encryptedClientSecret, 'base64'),
        ),
      ).toThrow();
      const [row] = await t.sql('SELECT * FROM auth_keys WHERE id = $1', [o.keyId]);
      expect(row.secret_hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      expect(JSON.stringify(row)).not.toContain(secret);
      o.clientSecret = secret;
    });

    it('issues a new secret on each call; the previous one stops working, the client id stays', async () => {
      const old = o.clientSecret;
      expect((await token({ grant_type: 'client_credentials', client_id: o.clientId, client_secret: old })).status).toBe(200);
      const r = await http(t.url, 'POST', credUrl());
      const fresh = oaepDecrypt(o.privateKeyPem, r.body.encryptedClientSecret);
      expect(fresh).not.toBe(old);
      expect(oaepDecrypt(o.privateKeyPem, r.body.encryptedClientId)).toBe(o.clientId);
      const refused = await token({ grant_type: 'client_credentials', client_id: o.clientId, client_secret: old });
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe('invalid_client');
      expect((await token({ grant_type: 'client_credentials', client_id: o.clientId, client_secret: fresh })).status).toBe(200);
      o.clientSecret = fresh;
    });
  });

  describe('token', () => {
    const good = () => ({ grant_type: 'client_credentials', client_id: o.clientId, client_secret: o.clientSecret });

    it('answers an HS256 JWT with the claims, token_type Bearer, expires_in 3600 and no-store', async () => {
      const r = await token(good());
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
      expect(r.headers.get('cache-control')).toBe('no-store');
      const { header, claims } = decodeJwt(r.body.access_token);
      expect(header).toEqual({ alg: 'HS256', typ: 'JWT', kid: expect.any(String) });
      expect(claims).toEqual({
        iss: 'payments-platform',
        sub: o.clientId,
        tenant: o.tenantId,
        kid: o.keyId,
        iat: expect.any(Number),
        exp: expect.any(Number),
        jti: expect.any(String),
      });
      expect(claims.exp - claims.iat).toBe(3600);
      expect(Math.abs(claims.iat - Date.now() / 1000)).toBeLessThan(5);
      const other = decodeJwt((await token(good())).body.access_token).claims;
      expect(other.jti).not.toBe(claims.jti);
      const use = await http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, {
        Authorization: `Bearer ${r.body.access_token}`,
      });
      expect(use.status).toBe(200);
    });

    it('takes a form-encoded body, HTTP Basic, and the /v1/auth/token alias', async () => {
      const form = new URLSearchParams(good()).toString();
      const f = await token(form, { 'content-type': 'application/x-www-form-urlencoded' });
      expect(f.status).toBe(200);
      expect(f.body.token_type).toBe('Bearer');
      const basic = Buffer.from(`${encodeURIComponent(o.clientId)}:${encodeURIComponent(o.clientSecret)}`).toString('base64');
      const b = await token('grant_type=client_credentials', {
        'content-type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${basic}`,
      });
      expect(b.status).toBe(200);
      const alias = await http(t.url, 'POST', '/v1/auth/token', good());
      expect(alias.status).toBe(200);
      expect(decodeJwt(alias.body.access_token).claims.sub).toBe(o.clientId);
    });

    it.each([
      ['a wrong secret', () => ({ ...good(), client_secret: 'sec_wrong' })],
      ['swapped id and secret', () => ({ ...good(), client_id: o.clientSecret, client_secret: o.clientId })],
      ['an unknown client id', () => ({ ...good(), client_id: 'cli_unknown' })],
    ])('refuses %s with 401 invalid_client (RFC 6749 body)', async (_what, body) => {
      const r = await token(body());
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ error: 'invalid_client', error_description: expect.any(String) });
      expect(r.text).not.toContain(o.clientSecret);
    });

    it('answers unsupported_grant_type and invalid_request with 400', async () => {
      const g = await token({ ...good(), grant_type: 'password' });
      expect(g.status).toBe(400);
      expect(g.body).toMatchObject({ error: 'unsupported_grant_type', error_description: expect.any(String) });
      for (const body of [
        { client_id: o.clientId, client_secret: o.clientSecret },
        { grant_type: 'client_credentials', client_id: o.clientId },
        { grant_type: 'client_credentials', client_secret: 'x' },
      ]) {
        const r = await token(body);
        expect(r.status).toBe(400);
        expect(r.body.error).toBe('invalid_request');
      }
    });
  });
});

describe('token call rate limits', () => {
  let t: TestApp;
  let o: OnboardedTenant;
  beforeAll(async () => {
    t = await startTestApp({ env: { TOKEN_RATE_LIMIT_PER_MINUTE: '3', TOKEN_IP_RATE_LIMIT_PER_MINUTE: '6' } });
  });
  afterAll(() => t.close());

  it('limits per client id, then per IP, with 429 rate_limited and Retry-After', async () => {
    // onboarding inside the same fixed window as the calls below, so its token call counts there
    await freshRateWindow();
    o = await onboardTenant(t);
    const body = (id: string) => ({ grant_type: 'client_credentials', client_id: id, client_secret: o.clientSecret });
    // onboarding used one call of each budget
    const a = await http(t.url, 'POST', '/v1/oauth/token', body(o.clientId));
    const b = await http(t.url, 'POST', '/v1/oauth/token', body(o.clientId));
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.headers.get('ratelimit-limit')).toBe('3');
    expect(b.headers.get('ratelimit-remaining')).toBe('0');
    const c = await http(t.url, 'POST', '/v1/oauth/token', body(o.clientId));
    expect(c.status).toBe(429);
    expect(c.body.error).toBe('rate_limited');
    expect(Number(c.headers.get('retry-after'))).toBeGreaterThan(0);
    // other client ids from the same IP: the IP budget (6) runs out
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await http(t.url, 'POST', '/v1/oauth/token', body(`cli_other${i}`))).status);
    expect(statuses).toEqual([401, 401, 429]);
  });
});
