import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { startTestApp, TestApp } from '../support/test-app';
import { SandboxPspServer } from '../../sandbox/src/psp/psp-server';
import { PspReceiver } from '../../sandbox/src/psp/psp-receiver';
import { SandboxPspConfig } from '../../sandbox/src/psp/sandbox-psp.config';

/**
 * An answer without a body claims no JSON: a strict client (the PSP's own, an SDK) parses a body
 * labelled `application/json` and fails on an empty string. Walked over every operation of the
 * service's OpenAPI document, every route of the sandbox PSP (API Pix over mutual TLS), and the
 * calls that answer with no body at all (API Pix webhook registrations 200, DELETE 204).
 */
const NOBODY = '00000000-0000-4000-8000-000000000000';
const ID_REC = 'RR1234567820261124aB3dE5gH7jK';

interface Seen {
  label: string;
  status: number;
  type: string | undefined;
  text: string;
}

const claimsJsonWithoutBody = (s: Seen) => s.text === '' && /json/i.test(s.type ?? '');
const show = (s: Seen) => `${s.label} → ${s.status} ${s.type}`;

/** Every (method, path) of Fastify's route tree as `printRoutes` draws it (HEAD and OPTIONS aside). */
function routesOf(tree: string): { method: string; path: string }[] {
  const out: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    stack.length = m[1].length / 4;
    stack.push(m[2]);
    for (const method of m[3]?.split(', ') ?? []) if (method !== 'HEAD' && method !== 'OPTIONS') out.push({ method, path: stack.join('') });
  }
  return out;
}

describe('an answer without a body carries no JSON content type', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let acme: OnboardedTenant;

  beforeAll(async () => {
    t = await startTestApp({ env: { PROVIDER_RETRY_DELAYS_MS: '10', PROVIDER_TIMEOUT_MS: '2000' } });
    acme = await onboardTenant(t, { name: 'ACME Empty', rateLimitPerMinute: 100000 });
  });
  afterAll(() => t?.close());

  async function call(method: string, path: string, body?: unknown, base = t.url): Promise<Seen> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...acme.auth,
        'X-Admin-Key': t.adminKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { label: `${method} ${path}`, status: res.status, type: res.headers.get('content-type') ?? undefined, text: await res.text() };
  }

  it('the service: the 204s of DELETE, and every route of both apps (the OpenAPI operations, the pages, the sandbox app)', async () => {
    const seen: Seen[] = [];
    for (const domain of ['acquiring', 'pix-automatic']) {
      seen.push(await call('PUT', `/v1/banking/webhooks/${domain}`, { url: `https://merchant.example.com/${domain}` }));
      const deleted = await call('DELETE', `/v1/banking/webhooks/${domain}`);
      expect(deleted).toMatchObject({ status: 204, text: '' });
      seen.push(deleted);
    }
    for (const [base, app] of [
      [t.url, t.app],
      [t.sandboxUrl, t.sandbox],
    ] as const)
      for (const r of routesOf(app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false }))) {
        const path = r.path.replace(/:[^/]+/g, NOBODY).replace(/\*/g, 'x');
        seen.push(await call(r.method, path, undefined, base));
        if (r.method !== 'GET' && r.method !== 'DELETE') seen.push(await call(r.method, path, {}, base));
      }
    expect(seen.length).toBeGreaterThan(150);
    expect(seen.filter((s) => s.text === '').length).toBeGreaterThanOrEqual(3);
    expect(seen.filter(claimsJsonWithoutBody).map(show)).toEqual([]);
  });

  it('the sandbox PSP: PUT /webhookrec, /webhookcobr and /webhook/{chave} answer 200 with no body and no JSON type; so does every route', async () => {
    const psp = t.sandbox.get(SandboxPspServer);
    const dir = join(t.dataDir, 'psp-certs');
    const tls = {
      ca: readFileSync(join(dir, 'ca.crt')),
      cert: readFileSync(join(dir, 'client.crt')),
      key: readFileSync(join(dir, 'client.key')),
    };
    const send = (method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<Seen> =>
      new Promise((resolve, reject) => {
        const req = request(`${psp.url()}${path}`, { method, ...tls, agent: false, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () =>
            resolve({ label: `${method} ${path}`, status: res.statusCode ?? 0, type: res.headers['content-type'], text }),
          );
        });
        req.on('error', reject);
        req.end(body);
      });
    const cfg = t.sandbox.get(SandboxPspConfig);
    const basic = Buffer.from(`${cfg.clientId}:${cfg.clientSecret}`).toString('base64');
    const token = await send('POST', '/oauth/token', 'grant_type=client_credentials', {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(token.status).toBe(200);
    const bearer = { authorization: `Bearer ${JSON.parse(token.text).access_token}` };
    const api = (method: string, path: string, body?: unknown) =>
      send(method, path, body === undefined ? undefined : JSON.stringify(body), {
        ...bearer,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      });

    const seen: Seen[] = [];
    const chave = encodeURIComponent(t.sandbox.get(PspReceiver).keys()[0]);
    for (const path of ['/webhookrec', '/webhookcobr', `/webhook/${chave}`]) {
      const put = await api('PUT', path, { webhookUrl: 'https://merchant.example.com/pix-api' });
      expect(put).toMatchObject({ status: 200, text: '' });
      expect(put.type).toBeUndefined();
      seen.push(put, await api('DELETE', path));
    }
    expect(seen.filter((s) => s.status === 204).length).toBeGreaterThanOrEqual(2);
    // every route the PSP has, with a plausible path, bodiless and with an empty object
    const routes = (psp as unknown as { routes: { method: string; parts: string[] }[] }).routes;
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) {
      const path =
        '/' + r.parts.map((p) => (p === ':idRec' ? ID_REC : p.startsWith(':') ? 'sandboxEmpty0000000000000000001' : p)).join('/');
      seen.push(await api(r.method, path));
      if (r.method !== 'GET' && r.method !== 'DELETE') seen.push(await api(r.method, path, {}));
    }
    expect(seen.filter(claimsJsonWithoutBody).map(show)).toEqual([]);
  });
});
