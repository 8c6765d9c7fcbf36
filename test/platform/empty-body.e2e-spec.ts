import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { onboardTenant, OnboardedTenant, rsaPair } from '../support/tenant-auth';
import { http, TestApp } from '../support/test-app';
import { recurrenceBody, startPixApp } from '../pix-automatic/support';

const JSON_HEADER = { 'content-type': 'application/json' };
const PLACEHOLDER = '00000000-0000-4000-8000-000000000000';

interface Operation {
  method: string;
  path: string;
  security: string[];
}

/** Every operation of the committed document that has no request body, or an optional one. */
function bodylessOperations(): Operation[] {
  const doc = JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8'));
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(ops)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (op.requestBody?.required) continue;
      out.push({
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, PLACEHOLDER),
        security: Object.keys(op.security?.[0] ?? {}),
      });
    }
  }
  return out;
}

/**
 * The spec has every call carry `Content-Type: application/json`, and many calls have no body.
 * An empty body with that header is no body: never 400 `malformed_json`.
 */
describe('body-less calls with Content-Type: application/json', () => {
  let t: TestApp;
  let tenant: OnboardedTenant;
  beforeAll(async () => {
    t = await startPixApp();
    tenant = await onboardTenant(t, { rateLimitPerMinute: 100000 });
  });
  afterAll(() => t.close());

  function authFor(op: Operation): Record<string, string> {
    if (op.security.includes('adminKey')) return { 'X-Admin-Key': t.adminKey };
    if (op.security.includes('bearer')) return tenant.auth;
    return {};
  }

  it('every body-less operation of the OpenAPI document answers the same with and without the header', async () => {
    const ops = bodylessOperations();
    expect(ops.length).toBeGreaterThan(30);
    const refused: string[] = [];
    for (const op of ops) {
      const withHeader = await http(t.url, op.method, op.path, op.method === 'GET' ? undefined : '', { ...authFor(op), ...JSON_HEADER });
      const without = await http(t.url, op.method, op.path, undefined, authFor(op));
      if (withHeader.body?.error === 'malformed_json' || withHeader.status >= 500 || withHeader.status !== without.status) {
        refused.push(
          `${op.method} ${op.path}: ${withHeader.status} ${withHeader.body?.error ?? ''} (without the header: ${without.status})`,
        );
      }
    }
    expect(refused).toEqual([]);
  });

  it('runs the Pix steps with the README header array: refresh and cancel', async () => {
    const h = { ...tenant.auth, ...JSON_HEADER };
    const body = recurrenceBody(t);
    const created = await http(t.url, 'POST', '/v1/banking/pix/automatic/recurrences', JSON.stringify(body), h);
    expect(created.status).toBe(200);
    const rid = created.body.recurrenceId;
    const refresh = await http(t.url, 'POST', `/v1/banking/pix/automatic/recurrences/${rid}/refresh`, '', h);
    expect(refresh.status).toBe(200);
    expect(refresh.body).toEqual({ recurrenceId: rid, status: 'PENDING' });
    const cancel = await http(t.url, 'POST', `/v1/banking/pix/automatic/recurrences/${rid}/cancel`, '', h);
    expect(cancel.status).toBe(200);
    expect(cancel.body.status).toMatch(/CANCELLED/);
  });

  it('runs the credential steps with the header: challenge and credentials', async () => {
    const { publicKey } = rsaPair();
    const up = await http(t.url, 'POST', `/v1/tenants/${tenant.tenantId}/keys`, { publicKey });
    expect(up.status).toBe(200);
    const challenge = await http(t.url, 'POST', `/v1/tenants/${tenant.tenantId}/keys/${up.body.keyId}/challenge`, '', JSON_HEADER);
    expect(challenge.status).toBe(200);
    expect(challenge.body.challenge).toEqual(expect.any(String));
  });

  it('still refuses a malformed non-empty body, and treats whitespace as no body', async () => {
    const h = { 'X-Admin-Key': t.adminKey, ...JSON_HEADER };
    const bad = await http(t.url, 'POST', '/admin/tenants', '{"name":', h);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('malformed_json');
    const blank = await http(t.url, 'POST', '/admin/tenants', '  \n', h);
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('validation_error');
    const poisoned = await http(t.url, 'POST', '/admin/tenants', '{"name":"x","__proto__":{"admin":true}}', h);
    expect(poisoned.status).toBe(400);
  });
});
