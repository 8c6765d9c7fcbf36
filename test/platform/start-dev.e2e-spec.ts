import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitHealthReady } from '../support/health-ready';
import { freePorts } from '../support/ports';
import { TEST_ADMIN_KEY } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const PROBE = join(ROOT, 'src', '__watch_probe__.ts'); // git-ignored
const PROBE_TMP = join(ROOT, '.__watch_probe__.ts.tmp'); // git-ignored; outside every folder `npm start` dates

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection({ port, host: '127.0.0.1' });
    c.once('connect', () => (c.destroy(), resolve(true)));
    c.once('error', () => resolve(false));
  });
}

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string, out: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} within ${ms} ms; output:\n${out()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** `npm run start:dev`: watch mode restarts the service on a change; the embedded database stays up. */
describe('npm run start:dev', () => {
  it('serves, restarts on a source change against the same embedded database, and stops whole on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-dev-'));
    chmodSync(dataDir, 0o755);
    const [port, pgPort] = await freePorts(2);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_PORT: String(pgPort),
      ADMIN_API_KEY: TEST_ADMIN_KEY,
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const dev = spawn('npm', ['run', '-s', 'start:dev'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    dev.stdout!.on('data', (d) => (out += d));
    dev.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => dev.on('exit', (c) => resolve(c)));
    const ready = (ms: number, what: string) =>
      waitHealthReady(`http://127.0.0.1:${port}`, {
        timeoutMs: ms,
        intervalMs: 250,
        failure: () => `${what} within ${ms} ms; output:\n${out}`,
      });
    const boots = () => out.split('listening on').length - 1;
    try {
      await ready(120_000, 'not ready');
      expect(boots()).toBe(1);
      const made = await fetch(`http://127.0.0.1:${port}/admin/tenants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-key': TEST_ADMIN_KEY },
        body: JSON.stringify({ name: 'Dev Tenant', allowedCidrs: ['127.0.0.1/32'] }),
      });
      expect(made.status).toBe(201);
      const { tenantId } = await made.json();

      // The probe appears with an old mtime (written beside the tree, dated, then renamed in): the
      // watcher sees a new file, while `npm start` in a suite running beside this one must not see
      // sources newer than dist/ and start a build that globs the probe just before it is removed.
      writeFileSync(PROBE_TMP, `export const WATCH_PROBE = ${Date.now()};\n`);
      utimesSync(PROBE_TMP, new Date('2000-01-01T00:00:00Z'), new Date('2000-01-01T00:00:00Z'));
      renameSync(PROBE_TMP, PROBE);
      await until(
        () => boots() === 2,
        60_000,
        'no restart after a source change',
        () => out,
      );
      await ready(30_000, 'not ready after the restart');
      // The same database: the tenant made before the restart is still there.
      const read = await fetch(`http://127.0.0.1:${port}/admin/tenants/${tenantId}`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
      expect(read.status).toBe(200);

      dev.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await listening(port)).toBe(false);
      expect(await listening(pgPort)).toBe(false);
    } finally {
      rmSync(PROBE, { force: true });
      rmSync(PROBE_TMP, { force: true });
      dev.kill('SIGKILL');
      dev.stdout!.destroy();
      dev.stderr!.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
