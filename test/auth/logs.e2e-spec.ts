import { http, startTestApp, TestApp } from '../support/test-app';
import { onboardTenant } from '../support/tenant-auth';

/** Everything the service logs during a full setup and token flow, searched for secrets. */
describe('nothing secret is logged', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'debug' } });
  });
  afterAll(() => t.close());

  it('has no private key, client secret, client id, access token or ciphertext in the logs', async () => {
    const o = await onboardTenant(t);
    const creds = await http(t.url, 'POST', `/v1/tenants/${o.tenantId}/keys/${o.keyId}/credentials`, undefined, {
      'Idempotency-Key': 'creds-1',
    });
    const body = { grant_type: 'client_credentials', client_id: o.clientId, client_secret: o.clientSecret };
    const form = new URLSearchParams(body).toString();
    await http(t.url, 'POST', '/v1/oauth/token', form, { 'content-type': 'application/x-www-form-urlencoded' });
    await http(t.url, 'POST', '/v1/oauth/token', { ...body, client_secret: `${o.clientSecret}x` });
    await http(t.url, 'POST', '/v1/oauth/token?client_secret=' + encodeURIComponent(o.clientSecret), body);
    await http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth);
    await http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, { Authorization: `Bearer ${o.token}x` });
    await http(t.url, 'POST', `/admin/tenants/${o.tenantId}/keys/${o.keyId}/revoke`, undefined, { 'X-Admin-Key': t.adminKey });
    await http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth);
    const logs = t.logs();
    // the flow was logged at all (one line per request)
    expect(logs).toContain('/v1/oauth/token');
    expect(logs.split('\n').length).toBeGreaterThan(10);
    const pemBody = o.privateKeyPem.split('\n').slice(1, -2).join('');
    const needles = {
      privateKeyLine: o.privateKeyPem.split('\n')[5],
      privateKeyBody: pemBody.slice(100, 160),
      clientSecret: o.clientSecret,
      clientSecretEncoded: encodeURIComponent(o.clientSecret),
      clientId: o.clientId,
      accessToken: o.token,
      accessTokenSignature: o.token.split('.')[2],
      encryptedSecret: creds.body.encryptedClientSecret.slice(0, 40),
      adminKey: t.adminKey,
    };
    for (const [what, needle] of Object.entries(needles)) expect({ what, found: logs.includes(needle) }).toEqual({ what, found: false });
  });
});
