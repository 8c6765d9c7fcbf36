import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const BUILT_MAIN = join(ROOT, 'dist', 'src', 'main.js');
export const BUILT_SANDBOX_MAIN = join(ROOT, 'dist', 'sandbox', 'src', 'main.js');

/** The kernel's range for ephemeral ports (outgoing connections and `listen(0)`). */
function ephemeralRange(): [number, number] {
  try {
    const [lo, hi] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (lo > 0 && hi >= lo) return [lo, hi];
  } catch {
    /* not Linux */
  }
  return [32768, 60999];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/**
 * A port for a process that must be told its port before it starts (the service, an embedded
 * PostgreSQL). It is free now and released, so something else could take it before that process
 * listens; it is drawn at random from below the ephemeral range, which outgoing connections
 * and `listen(0)` of every other test never use, so only another such draw could.
 */
export async function freePort(): Promise<number> {
  const [lo] = ephemeralRange();
  const from = Math.min(10000, lo - 1000);
  for (let i = 0; i < 50; i++) {
    const port = from + Math.floor(Math.random() * (lo - from));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found below the ephemeral range (${from}–${lo - 1})`);
}

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
  const p = port ?? (await freePort());
  const base = { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1' };
  let sandboxEnv: Record<string, string> = {};
  let sandbox: ChildProcess | null = null;
  if (opts.sandbox) {
    const [sp, psp] = [await freePort(), await freePort()];
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
  if (sandbox) {
    const sandboxUrl = sandboxEnv.SANDBOX_URL;
    const until = Date.now() + 60000;
    while (
      Date.now() < until &&
      (await fetch(`${sandboxUrl}/health/ready`).then(
        (r) => r.status,
        () => 0,
      )) !== 200
    )
      await new Promise((r) => setTimeout(r, 150));
  }
  const url = `http://127.0.0.1:${p}`;
  return {
    proc,
    port: p,
    url,
    output: () => out,
    exited,
    async waitReady(ms = 60000) {
      const until = Date.now() + ms;
      let gone = false;
      void exited.then(() => (gone = true));
      while (Date.now() < until && !gone) {
        try {
          const r = await fetch(`${url}/health/ready`);
          if (r.status === 200) return;
        } catch {
          /* not listening yet */
        }
        await new Promise((r) => setTimeout(r, 150));
      }
      throw new Error(`service on ${url} not ready (exited: ${gone}); output:\n${out}`);
    },
  };
}
