import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, TEST_ADMIN_KEY } from '../support/test-app';
import { freePorts } from '../support/ports';
import { spawnService } from '../support/service-process';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) a process has used, in ms, from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ ticks
}

/** POST /admin/tenants with its headers and the body's first bytes now and the rest after `restAfterMs`: a request in flight. */
function tenantInFlight(
  url: string,
  name: string,
  restAfterMs: number,
  agent?: Agent,
): { answer: Promise<{ status: number; connection?: string; body: string }>; cut: () => void } {
  const body = JSON.stringify({ name, allowedCidrs: ['127.0.0.1'] });
  let cut = () => undefined as void;
  const answer = new Promise<{ status: number; connection?: string; body: string }>((resolve, reject) => {
    const req = request(
      `${url}/admin/tenants`,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-admin-key': TEST_ADMIN_KEY },
      },
      (res) => {
        let b = '';
        res.on('data', (d) => (b += d));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: b }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 10));
    cut = () => void req.destroy();
    setTimeout(() => req.end(body.slice(10)), restAfterMs);
  });
  return { answer, cut };
}

describe('the service as a process', () => {
  it('on SIGTERM: readiness 503 first, in-flight requests finish, exit 0 within 10 s', async () => {
    const db = await freshDatabase('proc');
    const s = await spawnService({
      DATABASE_URL: db.url,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      SHUTDOWN_DRAIN_MS: '1500',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pp-proc-')),
    });
    try {
      await s.waitReady();
      // An in-flight request: headers and half the body now, the rest after SIGTERM.
      const { answer } = tenantInFlight(s.url, 'Inflight', 700);
      await new Promise((r) => setTimeout(r, 100));
      const t0 = Date.now();
      s.proc.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      const ready = await fetch(`${s.url}/health/ready`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
      expect(ready.status).toBe(503);
      expect((await ready.json()).error.lifecycle).toEqual({ status: 'down', draining: true });
      const r = await answer;
      expect(r.status).toBe(201);
      expect(JSON.parse(r.body).name).toBe('Inflight');
      expect(await s.exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(10000);
    } finally {
      s.proc.kill('SIGKILL');
      await db.drop();
    }
  });

  it('on SIGTERM with a silent connection open and a request answered after the close began: exit 0 well before the hard exit', async () => {
    // Node's server.close() waits for a connection that sent nothing until its headers timeout
    // (60 s or more), and for a request in flight at close until its kept-alive connection times
    // out (72 s): either reached the 9.5 s hard exit, code 1, with the pools never closed.
    const db = await freshDatabase('proc');
    const s = await spawnService({
      DATABASE_URL: db.url,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      SHUTDOWN_DRAIN_MS: '100',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pp-proc-')),
    });
    const silent = new Socket();
    const agent = new Agent({ keepAlive: true });
    try {
      await s.waitReady();
      await new Promise<void>((resolve, reject) => silent.once('error', reject).connect(Number(new URL(s.url).port), '127.0.0.1', resolve));
      // headers and part of the body now, the rest a second after SIGTERM (the close has begun by then)
      const { answer, cut } = tenantInFlight(s.url, 'Late', 1100, agent);
      s.proc.once('exit', cut);
      const t0 = Date.now();
      s.proc.kill('SIGTERM');
      expect(await answer).toMatchObject({ status: 201, connection: 'close' });
      expect(await s.exited).toBe(0);
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      silent.destroy();
      agent.destroy();
      s.proc.kill('SIGKILL');
      await db.drop();
    }
  });

  it('its log readers gone (a closed pipe, EPIPE): it keeps serving, idle, and still stops on SIGTERM', async () => {
    const db = await freshDatabase('proc');
    const s = await spawnService({
      DATABASE_URL: db.url,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '0',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'pp-proc-')),
    });
    try {
      await s.waitReady();
      // what `npm start | head` or a log collector that went away leaves: both pipes closed
      s.proc.stdout!.destroy();
      s.proc.stderr!.destroy();
      for (let i = 0; i < 5; i++) expect((await fetch(`${s.url}/health/live`)).status).toBe(200); // each one logged
      await new Promise((r) => setTimeout(r, 500));
      const [cpu0, t0] = [cpuMs(s.proc.pid!), Date.now()];
      await new Promise((r) => setTimeout(r, 1000));
      expect(cpuMs(s.proc.pid!) - cpu0).toBeLessThan((Date.now() - t0) / 4); // idle, not writing in a loop
      expect((await fetch(`${s.url}/health/live`)).status).toBe(200);
      s.proc.kill('SIGTERM');
      expect(await Promise.race([s.exited, new Promise((r) => setTimeout(() => r('still running'), 10000))])).toBe(0);
    } finally {
      s.proc.kill('SIGKILL');
      await db.drop();
    }
  });

  it('embedded default: a second start says the directory or port is in use; an orphaned postmaster is stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-embedded-'));
    chmodSync(dataDir, 0o755);
    const pgPort = String((await freePorts(1))[0]);
    const env = { DATABASE_URL: '', DATA_DIR: dataDir, EMBEDDED_PG_PORT: pgPort, ADMIN_API_KEY: TEST_ADMIN_KEY };
    const first = await spawnService(env);
    let last = first;
    try {
      await first.waitReady(90000);

      const sameDir = await spawnService(env);
      expect(await sameDir.exited).toBe(1);
      expect(sameDir.output()).toMatch(/data directory .* is in use by a running service \(pid \d+\)/);

      const samePort = await spawnService({ ...env, DATA_DIR: mkdtempSync(join(tmpdir(), 'pp-embedded-')) }, first.port);
      expect(await samePort.exited).toBe(1);
      expect(samePort.output()).toMatch(new RegExp(`Port ${first.port} is already in use`));

      // Killed hard: its PostgreSQL stays behind, holding the directory.
      const postmasterPid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
      first.proc.kill('SIGKILL');
      await first.exited;
      expect(alive(postmasterPid)).toBe(true);

      const again = await spawnService(env);
      last = again;
      await again.waitReady(90000);
      expect(alive(postmasterPid)).toBe(false);
      const tenants = await fetch(`${again.url}/admin/tenants`, { headers: { 'x-admin-key': TEST_ADMIN_KEY } });
      expect(tenants.status).toBe(200);

      again.proc.kill('SIGTERM');
      expect(await again.exited).toBe(0);
      expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    } finally {
      last.proc.kill('SIGKILL');
      first.proc.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180000);
});
