import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { waitHealthReady } from './health-ready';
import { freePorts } from './ports';

const ROOT = join(__dirname, '..', '..');
export const BUILT_MAIN = join(ROOT, 'dist', 'src', 'main.js');
export const BUILT_SANDBOX_MAIN = join(ROOT, 'dist', 'sandbox', 'src', 'main.js');

export interface ServiceProcess {
  proc: ChildProcess;
  port: number;
  url: string;
  output(): string;
  exited: Promise<number | null>;
  waitReady(ms?: number): Promise<void>;
}

/**
 * Runs the compiled service (`npm test` builds it first) as its own process; with
 * `{ sandbox: true }` the compiled sandbox app too, as `npm start` does (it stops when the
 * service's process ends).
 */
export async function spawnService(env: Record<string, string>, port?: number, opts: { sandbox?: boolean } = {}): Promise<ServiceProcess> {
  if (!existsSync(BUILT_MAIN)) throw new Error('dist/ is missing: run the suite with `npm test` (it builds first)');
  const p = port ?? (await freePorts(1))[0];
  const base = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
  let sandboxEnv: Record<string, string> = {};
  let sandbox: ChildProcess | null = null;
  if (opts.sandbox) {
    const [sp, psp] = await freePorts(2);
    sandboxEnv = { SANDBOX_URL: `http://127.0.0.1:${sp}`, SANDBOX_PSP_URL: `https://127.0.0.1:${psp}` };
    sandbox = spawn(process.execPath, [BUILT_SANDBOX_MAIN], {
      cwd: ROOT,
      env: { ...base, ...env, SANDBOX_PORT: String(sp), SANDBOX_PSP_PORT: String(psp), SANDBOX_SERVICE_URL: `http://127.0.0.1:${p}` },
      stdio: 'ignore',
    });
  }
  const proc = spawn(process.execPath, [BUILT_MAIN], {
    cwd: ROOT,
    env: { ...base, PORT: String(p), ...sandboxEnv, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  void exited.then(() => sandbox?.kill('SIGKILL'));
  // a sandbox not ready within the wait is no error here: what needs it fails on its own
  if (sandbox) await waitHealthReady(sandboxEnv.SANDBOX_URL).catch(() => undefined);
  const url = `http://127.0.0.1:${p}`;
  return {
    proc,
    port: p,
    url,
    output: () => out,
    exited,
    async waitReady(ms = 60000) {
      let gone = false;
      void exited.then(() => (gone = true));
      await waitHealthReady(url, {
        timeoutMs: ms,
        exited: () => gone,
        failure: (ended) => `service on ${url} not ready (exited: ${ended}); output:\n${out}`,
      });
    },
  };
}
