import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
export const BUILT_MAIN = join(ROOT, 'dist', 'src', 'main.js');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

export interface ServiceProcess {
  proc: ChildProcess;
  port: number;
  url: string;
  output(): string;
  exited: Promise<number | null>;
  waitReady(ms?: number): Promise<void>;
}

/** Runs the compiled service (`npm test` builds it first) as its own process. */
export async function spawnService(env: Record<string, string>, port?: number): Promise<ServiceProcess> {
  if (!existsSync(BUILT_MAIN)) throw new Error('dist/ is missing: run the suite with `npm test` (it builds first)');
  const p = port ?? (await freePort());
  const proc = spawn(process.execPath, [BUILT_MAIN], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', PORT: String(p), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
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
