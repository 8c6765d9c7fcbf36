import { freePorts } from '../support/ports';
import { http, startTestApp, TestApp } from '../support/test-app';

/**
 * OPS_PORT: the operator's routes (/metrics, /docs, /admin) leave the API port, which is all a
 * Kubernetes Service (and so an ingress) exposes; they answer on the second port instead.
 */
describe('OPS_PORT: /metrics, /docs and /admin on their own port, the API alone on PORT', () => {
  let t: TestApp;
  let ops: string;
  beforeAll(async () => {
    const [opsPort] = await freePorts(1);
    ops = `http://127.0.0.1:${opsPort}`;
    t = await startTestApp({ env: { OPS_PORT: String(opsPort), HOST: '127.0.0.1' } });
  });
  afterAll(() => t?.close());

  it('on PORT the operator routes answer 404 in the error envelope, as a path no route matches', async () => {
    const admin = { 'X-Admin-Key': t.adminKey };
    for (const [path, headers] of [
      ['/metrics', {}],
      ['/docs', {}],
      ['/docs-json', {}],
      ['/admin/tenants', admin],
      ['/admin/tenants?limit=1', admin],
    ] as const) {
      const r = await http(t.url, 'GET', path, undefined, headers);
      expect({ path, status: r.status, error: r.body?.error }).toEqual({ path, status: 404, error: 'route_not_found' });
      expect(r.body).toEqual({
        statusCode: 404,
        error: 'route_not_found',
        message: 'No route matches this method and path',
        requestId: expect.any(String),
      });
    }
    const unknown = await http(t.url, 'GET', '/no-such-route');
    expect(unknown.body.message).toBe('No route matches this method and path');
  });

  it('on OPS_PORT they are served: the Prometheus text, the OpenAPI document, the operator API', async () => {
    const metrics = await fetch(`${ops}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('http_requests_total');
    const doc = await http(ops, 'GET', '/docs-json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect((await fetch(`${ops}/docs`)).status).toBe(200);
    const tenants = await http(ops, 'GET', '/admin/tenants', undefined, { 'X-Admin-Key': t.adminKey });
    expect(tenants.status).toBe(200);
    const created = await http(
      ops,
      'POST',
      '/admin/tenants',
      { name: 'Ops Port Ltda', allowedCidrs: ['127.0.0.1/32'] },
      { 'X-Admin-Key': t.adminKey },
    );
    expect(created.status).toBe(201);
  });

  it('the API stays on PORT (and is not on OPS_PORT); health answers on both for the probes', async () => {
    const api = await http(t.url, 'GET', '/v1/banking/accounts/00000000-0000-4000-8000-000000000000/limits');
    expect(api.status).toBe(401); // reached the route's guard: the API is served here
    const onOps = await http(ops, 'GET', '/v1/banking/accounts/00000000-0000-4000-8000-000000000000/limits');
    expect(onOps.status).toBe(404);
    for (const base of [t.url, ops]) expect((await fetch(`${base}/health/live`)).status).toBe(200);
  });

  it('the sandbox app does not take the service OPS_PORT (its own would be SANDBOX_OPS_PORT)', async () => {
    expect((await fetch(`${t.sandboxUrl}/metrics`)).status).toBe(200);
  });
});

describe('each app names itself in its log lines', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('the sandbox app writes service "payments-sandbox", the service "payments-platform"', async () => {
    await fetch(`${t.sandboxUrl}/sandbox/clock`);
    await fetch(`${t.url}/v1/banking/accounts/00000000-0000-4000-8000-000000000000/limits`);
    const lines = t
      .logs()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    const sandboxLine = lines.find((l) => l.req?.url === '/sandbox/clock');
    const serviceLine = lines.find((l) => l.req?.url?.startsWith('/v1/banking/accounts/'));
    expect(sandboxLine?.service).toBe('payments-sandbox');
    expect(serviceLine?.service).toBe('payments-platform');
    // every line of the sandbox's own routes says so, none of the service's does
    expect(lines.filter((l) => l.req?.url?.startsWith('/sandbox/')).every((l) => l.service === 'payments-sandbox')).toBe(true);
  });
});
