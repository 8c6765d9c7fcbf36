import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSecrets } from '../../scripts/secrets-generate';
import { freshDatabase, TEST_ADMIN_KEY } from '../support/test-app';
import { waitHealthReady } from '../support/health-ready';
import { freePorts, npmStartPorts } from '../support/ports';

const ROOT = join(__dirname, '..', '..');

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection({ port, host: '127.0.0.1' });
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** `npm <args>` as an operator runs it, with its output kept and a wait for the apps' readiness. */
function npmRun(args: string[], env: NodeJS.ProcessEnv) {
  const npm = spawn('npm', [...args, '--silent'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout!.on('data', (d) => (out += d));
  npm.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  return {
    npm,
    exited,
    output: () => out,
    /** Until every port answers /health/ready with 200 (90 s at most: two embedded PostgreSQL are made on a loaded machine). */
    ready(...ports: number[]): Promise<void> {
      return waitHealthReady(
        ports.map((p) => `http://127.0.0.1:${p}`),
        { timeoutMs: 90000, intervalMs: 200, failure: () => `not ready:\n${out}` },
      );
    },
  };
}

/**
 * `npm start` as an operator or a process manager runs it: SIGTERM goes to the npm process, and
 * the two apps behind it (the service and the sandbox, each with its embedded PostgreSQL) must
 * stop with it, freeing every port.
 */
describe('npm start and signals', () => {
  jest.setTimeout(150_000);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to the npm process stops the service, the sandbox app and their embedded PostgreSQL`, async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'pp-npm-start-'));
      chmodSync(dataDir, 0o755);
      const pair = await npmStartPorts();
      const { port, pgPort, sandboxPort, pspPort } = pair;
      const sandboxPgPort = Number(pair.env.SANDBOX_EMBEDDED_PG_PORT);
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        ADMIN_API_KEY: TEST_ADMIN_KEY,
        ...pair.env,
      };
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      const run = npmRun(['start'], env);
      const { npm, exited } = run;
      try {
        await run.ready(port, sandboxPort);
        expect(await listening(pgPort)).toBe(true);
        expect(await listening(sandboxPgPort)).toBe(true);
        expect(await listening(pspPort)).toBe(true);
        npm.kill(signal);
        expect(await exited).toBe(0);
        // npm has exited: nothing of the service may still hold either port.
        expect(await listening(port)).toBe(false);
        for (const p of [pgPort, sandboxPort, pspPort, sandboxPgPort]) expect(await listening(p)).toBe(false);
        expect(run.output()).toContain('stopped');
      } finally {
        npm.kill('SIGKILL');
        npm.stdout!.destroy();
        npm.stderr!.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});

describe('npm start in production', () => {
  jest.setTimeout(150_000);
  it('runs the service alone: no sandbox process, no sandbox port, no sandbox route', async () => {
    const db = await freshDatabase();
    const [port, sandboxPort, pspPort] = await freePorts(3);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_PSP_PORT: String(pspPort),
      PROVIDER_URL: 'http://127.0.0.1:9/bank', // a real bank's URL in production; never called here
      ...generateSecrets(),
    };
    const run = npmRun(['start'], env);
    const { npm, exited } = run;
    try {
      await run.ready(port);
      expect(await listening(sandboxPort)).toBe(false);
      expect(await listening(pspPort)).toBe(false);
      const ready = await (await fetch(`http://127.0.0.1:${port}/health/ready`)).json();
      expect(JSON.stringify(ready)).not.toMatch(/sandbox/i);
      expect((await fetch(`http://127.0.0.1:${port}/sandbox/clock`)).status).toBe(404);
      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      npm.kill('SIGKILL');
      await db.drop();
    }
  });
});

describe('npm run sandbox', () => {
  jest.setTimeout(150_000);
  it('runs the sandbox app alone: its HTTP server and its API Pix PSP, its clock moving only itself; SIGTERM stops it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-npm-sandbox-'));
    chmodSync(dataDir, 0o755);
    const [port, pspPort, pgPort] = await freePorts(3);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      SANDBOX_PORT: String(port),
      SANDBOX_PSP_PORT: String(pspPort),
      SANDBOX_EMBEDDED_PG_PORT: String(pgPort),
      SANDBOX_HOST: '127.0.0.1',
    };
    delete env.DATABASE_URL;
    delete env.SANDBOX_DATABASE_URL;
    const run = npmRun(['run', 'sandbox'], env);
    const { npm, exited } = run;
    try {
      await run.ready(port);
      expect(await listening(pspPort)).toBe(true);
      expect(await listening(pgPort)).toBe(true);
      const moved = await fetch(`http://127.0.0.1:${port}/sandbox/clock/advance`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ days: 1 }),
      });
      expect(moved.status).toBe(200);
      expect(((await moved.json()) as { daysAdvanced: number }).daysAdvanced).toBe(1);
      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      for (const p of [port, pspPort, pgPort]) expect(await listening(p)).toBe(false);
    } finally {
      npm.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
