import { http, startTestApp, TestApp } from '../support/test-app';

describe('platform kernel over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const mine = await http(t.url, 'GET', '/health/live', undefined, { 'X-Request-Id': 'abc-123' });
    expect(mine.headers.get('x-request-id')).toBe('abc-123');
    const made = await http(t.url, 'GET', '/health/live', undefined, { 'X-Request-Id': 'bad id with spaces' });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown routes with the 404 envelope', async () => {
    const r = await http(t.url, 'GET', '/no/such/route', undefined, { 'X-Request-Id': 'rid-404' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ statusCode: 404, error: 'route_not_found', message: expect.any(String), requestId: 'rid-404' });
  });

  it('answers malformed JSON, wrong content type and oversize bodies with 4xx envelopes', async () => {
    const h = { 'X-Admin-Key': t.adminKey };
    const bad = await http(t.url, 'POST', '/admin/tenants', '{"name":', { ...h, 'content-type': 'application/json' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('malformed_json');
    // An empty body with the JSON header is no body: the required fields are what is missing.
    const empty = await http(t.url, 'POST', '/admin/tenants', '', { ...h, 'content-type': 'application/json' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('validation_error');
    const type = await http(t.url, 'POST', '/admin/tenants', '<name>x</name>', { ...h, 'content-type': 'application/xml' });
    expect(type.status).toBe(415);
    expect(type.body.error).toBe('unsupported_media_type');
    const big = await http(t.url, 'POST', '/admin/tenants', JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }), {
      ...h,
      'content-type': 'application/json',
    });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('payload_too_large');
    for (const r of [bad, type, big]) expect(r.body.requestId).toEqual(expect.any(String));
  });

  it('reports liveness and readiness with database and migrations', async () => {
    expect((await http(t.url, 'GET', '/health/live')).body).toEqual({ status: 'ok' });
    const ready = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
    expect(ready.status).toBe(200);
    expect(ready.body.details.database).toEqual({ status: 'up', migrations: 'applied' });
    expect(ready.body.details.backgroundJobs).toEqual({ status: 'up', failing: [] });
  });

  it('exports Prometheus metrics by route template and status', async () => {
    await http(t.url, 'GET', '/admin/tenants/00000000-0000-0000-0000-000000000000', undefined, { 'X-Admin-Key': t.adminKey });
    const m = await http(t.url, 'GET', '/metrics');
    expect(m.headers.get('content-type')).toContain('text/plain');
    expect(m.text).toMatch(/http_requests_total\{method="GET",route="\/admin\/tenants\/:tenantId",status="404"\} 1/);
    expect(m.text).toContain('http_request_duration_seconds_bucket');
    expect(m.text).toContain('process_cpu_user_seconds_total');
    // clock sync runs at start and every 2 s: its passes are counted by job
    expect(m.text).toMatch(/jobs_runs_total\{job="clock-sync",outcome="ok"\} [1-9]/);
    expect(m.text).toMatch(/jobs_last_success_seconds\{job="clock-sync"\} \d/);
  });

  describe('tenants admin API', () => {
    const admin = () => ({ 'X-Admin-Key': t.adminKey });

    it('refuses a missing and a wrong admin key alike', async () => {
      const missing = await http(t.url, 'GET', '/admin/tenants');
      const wrong = await http(t.url, 'GET', '/admin/tenants', undefined, { 'X-Admin-Key': 'nope' });
      expect(missing.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect({ ...missing.body, requestId: '' }).toEqual({ ...wrong.body, requestId: '' });
    });

    it('creates, reads, lists and updates a tenant with IPv4 and IPv6 CIDRs', async () => {
      const c = await http(t.url, 'POST', '/admin/tenants', { name: 'ACME', allowedCidrs: ['127.0.0.1', '2001:db8::1/32'] }, admin());
      expect(c.status).toBe(201);
      expect(c.body).toMatchObject({
        name: 'ACME',
        allowedCidrs: ['127.0.0.1/32', '2001:db8::/32'],
        rateLimitPerMinute: 100,
        status: 'ACTIVE',
      });
      const id = c.body.tenantId;
      expect((await http(t.url, 'GET', `/admin/tenants/${id}`, undefined, admin())).body.name).toBe('ACME');
      const p = await http(t.url, 'PATCH', `/admin/tenants/${id}`, { rateLimitPerMinute: 250, status: 'SUSPENDED' }, admin());
      expect(p.body).toMatchObject({ rateLimitPerMinute: 250, status: 'SUSPENDED' });
      const list = await http(t.url, 'GET', '/admin/tenants?limit=10&offset=0', undefined, admin());
      expect(list.body).toMatchObject({ limit: 10, offset: 0 });
      expect(list.body.items.map((x: any) => x.tenantId)).toContain(id);
      const rows = await t.sql('SELECT rate_limit_per_minute FROM tenants WHERE id = $1', [id]);
      expect(rows[0].rate_limit_per_minute).toBe(250);
    });

    it('rejects bad input with details and writes nothing', async () => {
      const before = (await t.sql('SELECT count(*)::int AS n FROM tenants'))[0].n;
      const r = await http(
        t.url,
        'POST',
        '/admin/tenants',
        { name: '', allowedCidrs: ['10.0.0.0/33', 'banana'], rateLimitPerMinute: 0, extra: 1 },
        admin(),
      );
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('validation_error');
      const fields = r.body.details.map((d: any) => d.field);
      expect(fields).toEqual(expect.arrayContaining(['name', 'rateLimitPerMinute', 'extra']));
      const cidr = await http(t.url, 'POST', '/admin/tenants', { name: 'x', allowedCidrs: ['10.0.0.0/33', 'banana'] }, admin());
      expect(cidr.status).toBe(400);
      expect(cidr.body.error).toBe('invalid_cidr');
      expect(cidr.body.details.map((d: any) => d.field)).toEqual(['allowedCidrs[0]', 'allowedCidrs[1]']);
      expect((await t.sql('SELECT count(*)::int AS n FROM tenants'))[0].n).toBe(before);
    });

    it('answers 404 for an unknown or malformed tenant id', async () => {
      expect((await http(t.url, 'GET', '/admin/tenants/not-a-uuid', undefined, admin())).status).toBe(404);
      expect((await http(t.url, 'PATCH', '/admin/tenants/00000000-0000-0000-0000-000000000000', { name: 'x' }, admin())).body.error).toBe(
        'tenant_not_found',
      );
    });
  });
});
