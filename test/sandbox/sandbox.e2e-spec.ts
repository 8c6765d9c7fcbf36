import { CONFIG_SECTIONS } from '../../src/config.sections';
import { ConfigValidationError, loadConfig } from '../../kernel/platform/config/config';
import { addDays } from '../../src/pix-automatic/domain/calendar';
import { PeriodicJobs } from '../../kernel/platform/jobs/periodic-jobs';
import { http, startTestApp, TestApp } from '../support/test-app';

const QUIET = { BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0' };

describe('sandbox: test clock and bank API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: QUIET });
  });
  afterAll(() => t.close());

  it('shows the clock and moves it day by day', async () => {
    const before = await http(t.sandboxUrl, 'GET', '/sandbox/clock');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ now: expect.stringMatching(/Z$/), today: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    const moved = await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 2 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ today: addDays(before.body.today, 2), daysAdvanced: 2 });
    expect(Date.parse(moved.body.now) - Date.parse(before.body.now)).toBeGreaterThanOrEqual(2 * 86_400_000);
    expect(await t.sql('SELECT offset_ms::bigint::text AS ms FROM platform_clock')).toEqual([{ ms: String(2 * 86_400_000) }]);
    for (const days of [0, -1, 1.5, 401, 'x']) {
      const r = await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days });
      expect({ days, status: r.status, error: r.body.error }).toEqual({ days, status: 400, error: 'validation_error' });
    }
  });

  it("the service's process schedules no sandbox job; the sandbox app's process schedules them all", () => {
    const service = t.app.get(PeriodicJobs).scheduled();
    const sandbox = t.sandbox.get(PeriodicJobs).scheduled();
    expect(service.filter((j) => /sandbox|psp/i.test(j))).toEqual([]);
    expect(sandbox).toEqual(expect.arrayContaining(['sandbox-bank', 'sandbox-acquirer', 'sandbox-psp-cobr', 'sandbox-adyen-webhooks']));
    expect(sandbox.filter((j) => service.includes(j))).toEqual(['clock-sync']);
  });

  it('answers its bank API only with the provider key', async () => {
    const none = await http(t.sandboxUrl, 'GET', '/sandbox/bank/recurrences/anything');
    expect(none.status).toBe(401);
    expect(none.body.error).toBe('invalid_provider_key');
    const wrong = await http(t.sandboxUrl, 'POST', '/sandbox/bank/billings/batch', { billings: [] }, { 'x-provider-key': 'x'.repeat(43) });
    expect(wrong.status).toBe(401);
  });

  it('shows a not-found page for an unknown authorization', async () => {
    const r = await fetch(`${t.sandboxUrl}/sandbox/bank/authorize/nope`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toContain('text/html');
  });
});

describe('sandbox disabled', () => {
  it('the service needs PROVIDER_URL in production unless a sandbox is configured (SANDBOX_URL)', () => {
    const env = { NODE_ENV: 'production', DATA_DIR: '/tmp/pp-sandbox-cfg' };
    expect(() => loadConfig(CONFIG_SECTIONS, env)).toThrow(ConfigValidationError);
    const problems = (withSandbox?: string) => {
      try {
        loadConfig(CONFIG_SECTIONS, { ...env, ...(withSandbox ? { SANDBOX_URL: withSandbox } : {}) });
        return '';
      } catch (e) {
        return (e as ConfigValidationError).problems.join('\n');
      }
    };
    expect(problems()).toMatch(/PROVIDER_URL is required/);
    expect(problems('http://sandbox.staging.internal:3001')).not.toMatch(/PROVIDER_URL is required/);
  });

  it('the sandbox app refuses every route when off (the clock included); the service has none of them', async () => {
    const t = await startTestApp({ env: { ...QUIET, SANDBOX_ENABLED: 'false', PROVIDER_URL: 'http://127.0.0.1:9/bank' } });
    try {
      for (const [method, path, body] of [
        ['GET', '/sandbox/clock'],
        ['POST', '/sandbox/clock/advance', { days: 1 }],
        ['GET', '/sandbox/bank/authorize/x'],
        ['POST', '/sandbox/recurrences/x/approve'],
        ['GET', '/sandbox/bank/recurrences/x'],
      ] as [string, string, unknown?][]) {
        const r = await http(t.sandboxUrl, method, path, body);
        expect({ path, status: r.status, error: r.body?.error }).toEqual({ path, status: 404, error: 'sandbox_disabled' });
        expect((await http(t.url, method, path, body)).body?.error).toBe('route_not_found');
      }
      expect(await t.sql('SELECT count(*)::int AS n FROM platform_clock')).toEqual([{ n: 0 }]);
    } finally {
      await t.close();
    }
  });
});
