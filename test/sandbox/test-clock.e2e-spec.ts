import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_CLOCK_SECRET_HEADER } from '../../kernel/common/protocols/test-clock';
import { Clock, DayPassedSignal, saoPauloDate } from '../../kernel/platform/clock/clock';
import { addDays } from '../../src/pix-automatic/domain/calendar';
import { http, startTestApp, TestApp } from '../support/test-app';

const QUIET = { BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0' };
const SECRET = 'test-clock-secret-0123456789abcdef';
const DAY = 86_400_000;

/**
 * The test clock across the process boundary: the sandbox app owns it and, for each day, asks
 * the service (`POST /test-clock/days`) to take the same offset and run the start of its day
 * before the sandbox's own day, and the end of it after.
 */
describe('the test clock between the sandbox app and the service', () => {
  let t: TestApp;
  const ran: string[] = [];
  beforeAll(async () => {
    t = await startTestApp({ env: { ...QUIET, TEST_CLOCK_SECRET: SECRET } });
    t.app.get(DayPassedSignal).subscribe('test.start', async (day) => void ran.push(`service start ${day}`), 5);
    t.app.get(DayPassedSignal).subscribe('test.end', async (day) => void ran.push(`service end ${day}`), 500);
    t.sandbox.get(DayPassedSignal).subscribe('test.sandbox', async (day) => void ran.push(`sandbox ${day}`), 60);
  });
  afterAll(() => t.close());

  it('runs each day as service start, sandbox day, service end, on the same date in both apps', async () => {
    ran.length = 0;
    const today = t.app.get(Clock).today();
    const moved = await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 2 });
    expect(moved.status).toBe(200);
    const [d1, d2] = [addDays(today, 1), addDays(today, 2)];
    expect(ran).toEqual([
      `service start ${d1}`,
      `sandbox ${d1}`,
      `service end ${d1}`,
      `service start ${d2}`,
      `sandbox ${d2}`,
      `service end ${d2}`,
    ]);
    expect(t.app.get(Clock).offsetMs()).toBe(t.sandbox.get(Clock).offsetMs());
    expect(t.app.get(Clock).today()).toBe(moved.body.today);
  });

  it("the service's route: only with TEST_CLOCK_SECRET, an absolute offset (a day sent twice moves time once), one half of the day", async () => {
    const offset = t.app.get(Clock).offsetMs() + DAY;
    const attempts: Record<string, string>[] = [
      {},
      { [TEST_CLOCK_SECRET_HEADER]: 'x'.repeat(SECRET.length) },
      { [TEST_CLOCK_SECRET_HEADER]: 'short' },
    ];
    for (const headers of attempts) {
      const r = await http(t.url, 'POST', '/test-clock/days', { offsetMs: offset, phase: 'start' }, headers);
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 401, error: 'unauthorized' });
      expect(r.text).not.toContain(SECRET);
    }
    ran.length = 0;
    const ok = { [TEST_CLOCK_SECRET_HEADER]: SECRET };
    for (let i = 0; i < 2; i++) {
      const r = await http(t.url, 'POST', '/test-clock/days', { offsetMs: offset, phase: 'end' }, ok);
      expect(r.status).toBe(200);
    }
    expect(t.app.get(Clock).offsetMs()).toBe(offset);
    expect(ran).toEqual([`service end ${t.app.get(Clock).today()}`, `service end ${t.app.get(Clock).today()}`]);
    const bad = await http(t.url, 'POST', '/test-clock/days', { offsetMs: -1, phase: 'noon' }, ok);
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['offsetMs', 'phase']);
  });

  it("resets both clocks to real time, running no day's work", async () => {
    await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 3 });
    const realToday = saoPauloDate(new Date());
    expect(t.app.get(Clock).today()).not.toBe(realToday);
    ran.length = 0;
    const reset = await http(t.sandboxUrl, 'POST', '/sandbox/clock/reset');
    expect(reset.status).toBe(200);
    expect(reset.body.today).toBe(realToday);
    expect(Math.abs(Date.parse(reset.body.now) - Date.now())).toBeLessThan(5000);
    expect(ran).toEqual([]);
    expect([t.app.get(Clock).offsetMs(), t.sandbox.get(Clock).offsetMs()]).toEqual([0, 0]);
    expect((await http(t.sandboxUrl, 'GET', '/sandbox/clock')).body.today).toBe(realToday);
    // safe to repeat; the next advance counts from real time again
    expect((await http(t.sandboxUrl, 'POST', '/sandbox/clock/reset')).status).toBe(200);
    const moved = await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 1 });
    expect(moved.body.today).toBe(addDays(realToday, 1));
    expect(t.app.get(Clock).today()).toBe(addDays(realToday, 1));
  });

  it("the service's reset route: only with TEST_CLOCK_SECRET", async () => {
    await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 1 });
    const attempts: Record<string, string>[] = [{}, { [TEST_CLOCK_SECRET_HEADER]: 'x'.repeat(SECRET.length) }];
    for (const headers of attempts) {
      const r = await http(t.url, 'POST', '/test-clock/reset', undefined, headers);
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 401, error: 'unauthorized' });
    }
    expect(t.app.get(Clock).offsetMs()).toBeGreaterThan(0);
    const r = await http(t.url, 'POST', '/test-clock/reset', undefined, { [TEST_CLOCK_SECRET_HEADER]: SECRET });
    expect(r.status).toBe(200);
    expect(t.app.get(Clock).offsetMs()).toBe(0);
    await http(t.sandboxUrl, 'POST', '/sandbox/clock/reset');
  });

  it('`npm run sandbox -- --reset` resets the sandbox already running on SANDBOX_PORT (and its service), starting nothing', async () => {
    await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 2 });
    const port = new URL(t.sandboxUrl).port;
    const { code, err } = await new Promise<{ code: number | null; err: string }>((resolve) => {
      const p = spawn(process.execPath, [join(__dirname, '..', '..', 'scripts', 'start.js'), '--sandbox', '--reset'], {
        env: { ...process.env, SANDBOX_PORT: port },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let text = '';
      p.stderr.on('data', (d) => (text += d));
      p.on('exit', (c) => resolve({ code: c, err: text }));
    });
    expect(code).toBe(0);
    expect(err).toContain(`test clock reset at http://127.0.0.1:${port}: now`);
    expect(err).toContain(`today ${saoPauloDate(new Date())}`);
    expect([t.app.get(Clock).offsetMs(), t.sandbox.get(Clock).offsetMs()]).toEqual([0, 0]);
  });
});

describe('the test clock when the service does not answer', () => {
  it('answers 502 test_clock_service_failed; with SANDBOX_CLOCK_DRIVES_SERVICE=false it moves the sandbox alone', async () => {
    const t = await startTestApp({ env: { ...QUIET, SANDBOX_SERVICE_URL: 'http://127.0.0.1:9' } });
    try {
      const r = await http(t.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 1 });
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 502, error: 'test_clock_service_failed' });
      // the reset says the same, and the sandbox's own clock is back at real time
      const reset = await http(t.sandboxUrl, 'POST', '/sandbox/clock/reset');
      expect({ status: reset.status, error: reset.body.error }).toEqual({ status: 502, error: 'test_clock_service_failed' });
      expect(reset.body.message).toContain('reset to real time');
      expect(t.sandbox.get(Clock).offsetMs()).toBe(0);
    } finally {
      await t.close();
    }
    const alone = await startTestApp({
      env: { ...QUIET, SANDBOX_SERVICE_URL: 'http://127.0.0.1:9', SANDBOX_CLOCK_DRIVES_SERVICE: 'false' },
    });
    try {
      const r = await http(alone.sandboxUrl, 'POST', '/sandbox/clock/advance', { days: 1 });
      expect(r.status).toBe(200);
      expect(alone.sandbox.get(Clock).offsetMs()).toBe(DAY);
      expect(alone.app.get(Clock).offsetMs()).toBe(0);
      const reset = await http(alone.sandboxUrl, 'POST', '/sandbox/clock/reset');
      expect(reset.status).toBe(200);
      expect(alone.sandbox.get(Clock).offsetMs()).toBe(0);
    } finally {
      await alone.close();
    }
  });

  it('is off in the service unless TEST_CLOCK_ENABLED (404), in production by default', async () => {
    const t = await startTestApp({ env: { ...QUIET, TEST_CLOCK_ENABLED: 'false' } });
    try {
      const r = await http(t.url, 'POST', '/test-clock/days', { offsetMs: DAY, phase: 'start' }, { [TEST_CLOCK_SECRET_HEADER]: 'x' });
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 404, error: 'not_found' });
    } finally {
      await t.close();
    }
  });
});

describe('two processes booting together on a new DATA_DIR', () => {
  const ROOT = join(__dirname, '..', '..');
  const run = (script: string, dir: string) =>
    new Promise<string>((resolve, reject) => {
      const p = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
        cwd: ROOT,
        env: { ...process.env, DIR: dir },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      p.stdout.on('data', (d) => (out += d));
      p.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
    });

  it('make one development secret and one development PKI, never two', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pp-two-'));
    try {
      const secret = `const { DevSecretStore } = require('./kernel/platform/config/env'); process.stdout.write(new DevSecretStore(process.env.DIR + '/secrets.json').get('SHARED', 32));`;
      const pki = `const { ensureDevCertificates } = require('./kernel/platform/tls/dev-certificates'); process.stdout.write(ensureDevCertificates(process.env.DIR + '/psp-certs').ca);`;
      const secrets = await Promise.all(Array.from({ length: 4 }, () => run(secret, dir)));
      expect(new Set(secrets).size).toBe(1);
      expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')).SHARED).toBe(secrets[0]);
      const cas = await Promise.all(Array.from({ length: 3 }, () => run(pki, dir)));
      expect(new Set(cas).size).toBe(1);
      expect(readFileSync(join(dir, 'psp-certs', 'ca.crt'), 'utf8').trim()).toBe(cas[0]);
      // the client certificate on disk is signed by that one CA
      expect(() =>
        execFileSync('openssl', ['verify', '-CAfile', join(dir, 'psp-certs', 'ca.crt'), join(dir, 'psp-certs', 'client.crt')], {
          stdio: 'pipe',
        }),
      ).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
