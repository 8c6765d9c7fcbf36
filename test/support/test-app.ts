import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client, Pool } from 'pg';
import { createApp } from '../../src/app.factory';
import { SANDBOX_CONFIG_SECTIONS } from '../../sandbox/src/config.sections';
import { createSandboxApp } from '../../sandbox/src/sandbox-app.factory';
import { sandboxEnv } from '../../sandbox/src/sandbox-env';
import { CONFIG_SECTIONS } from '../../src/config.sections';
import { loadConfig } from '../../kernel/platform/config/config';
import { ClockSync } from '../../kernel/platform/clock/clock-sync.service';
import { DatabaseLifecycle } from '../../kernel/platform/database/database.lifecycle';
import { sqlPoolOf } from '../../kernel/platform/database/sql';
import { PeriodicJobs } from '../../kernel/platform/jobs/periodic-jobs';
import { DataSource } from 'typeorm';
import { freePorts } from './ports';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789abcdef';

/** The PostgreSQL server the suite runs against (scripts/test.js sets it, embedded if needed). */
export function serverUrl(): string {
  const u = process.env.DATABASE_URL;
  if (!u) throw new Error('DATABASE_URL is not set: run the suite with `npm test`');
  return u;
}

export function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * A fresh database on the test server, dropped by the returned function: empty, or with
 * `migrated` a copy of the run's migrated template when `npm test` made one
 * (PP_TEST_TEMPLATE_DB, scripts/test.js), so an app's boot finds no migration to run.
 */
export async function freshDatabase(
  prefix = 't',
  opts: { migrated?: boolean } = {},
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const template = opts.migrated ? process.env.PP_TEST_TEMPLATE_DB : undefined;
  const admin = new Client({ connectionString: withDatabase(serverUrl(), 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  await admin.end();
  return {
    url: withDatabase(serverUrl(), name),
    name,
    drop: async () => {
      const c = new Client({ connectionString: withDatabase(serverUrl(), 'postgres') });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await c.end();
    },
  };
}

export interface TestApp {
  app: NestFastifyApplication;
  url: string;
  /** The sandbox app, its own Nest application on its own port (same database, its own schema). */
  sandbox: NestFastifyApplication;
  sandboxUrl: string;
  databaseUrl: string;
  dataDir: string;
  adminKey: string;
  /** Moves both apps' clocks by `ms` (no day's work runs): the sandbox's, then the service's to the same offset. */
  advanceClock(ms: number): Promise<number>;
  /** The sandbox's test clock route: `days` days, each running the service's and the sandbox's day. */
  advanceDays(days: number): Promise<void>;
  /** Every log line written so far, as text. */
  logs(): string;
  /** Plain SQL against the app's database (for assertions only); the sandbox's schema is on its search path. */
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Reuse an existing database instead of a fresh one. */
  databaseUrl?: string;
  /** Do not wait for the database (outage tests). */
  noWait?: boolean;
}

interface Booted {
  app: NestFastifyApplication;
  sandbox: NestFastifyApplication;
  url: string;
  sandboxUrl: string;
}

/** The sandbox app, then the service, each on its own port, each configured with the other's address. */
async function bootBoth(env: NodeJS.ProcessEnv, sink: Writable, wait: boolean): Promise<Booted> {
  const [servicePort, sandboxPort, pspPort] = await freePorts(3);
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  // the service's configuration is checked first: a test of a refused configuration sees its own
  const config = loadConfig(CONFIG_SECTIONS, {
    SANDBOX_URL: sandboxUrl,
    SANDBOX_PUBLIC_URL: sandboxUrl,
    SANDBOX_PSP_URL: `https://127.0.0.1:${pspPort}`,
    ...env,
  });
  const sandboxConfig = loadConfig(
    SANDBOX_CONFIG_SECTIONS,
    sandboxEnv({
      SANDBOX_PSP_PORT: String(pspPort),
      SANDBOX_PUBLIC_URL: sandboxUrl,
      // OpenTelemetry's provider is one per process and the sandbox app registers it first here:
      // under test both apps' spans carry the service's name (as two processes, each its own)
      ...(env.OTEL_SERVICE_NAME ? { SANDBOX_OTEL_SERVICE_NAME: env.OTEL_SERVICE_NAME } : {}),
      SANDBOX_SERVICE_URL: `http://127.0.0.1:${servicePort}`,
      ...env,
      SANDBOX_PORT: String(sandboxPort),
    }),
  );
  const sandbox = await createSandboxApp(sandboxConfig, { logDestination: sink });
  let app: NestFastifyApplication | undefined;
  try {
    await sandbox.listen(sandboxPort, '127.0.0.1');
    // the service registers its webhooks at the PSP as it boots: the sandbox answers them once migrated
    if (wait) await sandbox.get(DatabaseLifecycle).whenReady();
    app = await createApp(config, { logDestination: sink });
    await app.listen(servicePort, '127.0.0.1');
    if (wait) await app.get(DatabaseLifecycle).whenReady();
    return { app, sandbox, url: `http://127.0.0.1:${servicePort}`, sandboxUrl };
  } catch (e) {
    await app?.close().catch(() => undefined);
    await sandbox.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Boots the real service and the sandbox app in this process, each its own Nest application on
 * its own port, against a fresh database (the sandbox in its own schema): they reach each other
 * only over HTTP, as `npm start` runs them.
 */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const db = opts.databaseUrl ? null : await freshDatabase('t', { migrated: true });
  const databaseUrl = opts.databaseUrl ?? db!.url;
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-test-'));
  let captured = '';
  const sink = new Writable({
    write(chunk, _enc, cb) {
      captured += chunk.toString();
      cb();
    },
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    ADMIN_API_KEY: TEST_ADMIN_KEY,
    PORT: '3000',
    SHUTDOWN_DRAIN_MS: '0',
    // apps of parallel test files share one Redis; each test database gets its own key space
    REDIS_KEY_PREFIX: `${databaseUrl.split('/').pop()}:`,
    // payment suites pay from one IP far more often than a payer would; checkout-rate-limit sets its own
    CHECKOUT_RATE_LIMIT_PER_MINUTE: '100000',
    ...opts.env,
  };
  // Ports are chosen before either app boots (each must know the other's address); one taken in
  // the meantime by another test file fails the boot with EADDRINUSE, which is tried again.
  let booted: Booted | undefined;
  for (let attempt = 1; !booted; attempt++) {
    try {
      booted = await bootBoth(env, sink, !opts.noWait);
    } catch (e: any) {
      if (e?.code !== 'EADDRINUSE' || attempt >= 3) throw e;
    }
  }
  const { app, sandbox, url, sandboxUrl } = booted;
  // a pool: tests run queries side by side (one pg Client may not run two at once)
  const pg = new Pool({ connectionString: databaseUrl, options: '-c search_path=public,sandbox', max: 4 });
  pg.on('error', () => undefined); // an idle connection cut by a test that stops PostgreSQL
  return {
    app,
    url,
    sandbox,
    sandboxUrl,
    databaseUrl,
    dataDir,
    adminKey: TEST_ADMIN_KEY,
    logs: () => captured,
    async advanceClock(ms) {
      const offset = await sandbox.get(ClockSync).advance(ms);
      return app.get(ClockSync).set(offset);
    },
    async advanceDays(days) {
      const r = await http(sandboxUrl, 'POST', '/sandbox/clock/advance', { days });
      if (r.status !== 200) throw new Error(`the test clock did not advance: ${r.status} ${r.text}`);
    },
    async sql(text, params) {
      return (await pg.query(text, params as any[])).rows;
    },
    async close() {
      const watch = (step: string, work: Promise<unknown>) =>
        watchedStep(step, work, { app, sandbox, databaseUrl, pool: pg, logs: () => captured });
      await watch(
        'the test pool end()',
        pg.end().catch(() => undefined),
      );
      await watch('the service app.close()', app.close());
      await watch('the sandbox app.close()', sandbox.close());
      if (db) await watch('DROP DATABASE', db.drop());
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

interface CloseWatch {
  app: NestFastifyApplication;
  sandbox: NestFastifyApplication;
  databaseUrl: string;
  /** The test's own pool (`sql()`). */
  pool: Pool;
  logs: () => string;
}

/** A close step slower than this has its report written (jest's hook timeout is 60 s). */
const SLOW_CLOSE_MS = 15_000;

/**
 * Awaits one step of closing a test app; past SLOW_CLOSE_MS it writes to stderr what the apps
 * still wait for (jobs with a pass in progress, each SQL pool's clients, the database's sessions,
 * the process's handles, the last log lines) and goes on waiting, so a hang that fails a suite's
 * `afterAll` says where it is.
 */
async function watchedStep(step: string, work: Promise<unknown>, apps: CloseWatch): Promise<void> {
  const started = Date.now();
  const timer = setTimeout(() => {
    void closeReport(step, started, apps).then(
      (r) => process.stderr.write(r),
      (e) => process.stderr.write(`slow close: ${step}: the report failed: ${e?.message ?? e}\n`),
    );
  }, SLOW_CLOSE_MS);
  try {
    await work;
  } finally {
    clearTimeout(timer);
  }
}

async function closeReport(step: string, started: number, { app, sandbox, databaseUrl, pool, logs }: CloseWatch): Promise<string> {
  const of = (name: string, a: NestFastifyApplication) => {
    const out: Record<string, unknown> = {};
    try {
      out.jobsInProgress = a.get(PeriodicJobs).inProgress();
    } catch (e: any) {
      out.jobsInProgress = `unknown (${e?.message})`;
    }
    try {
      const p = sqlPoolOf(a.get(DataSource));
      out.sqlPool = { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount, ending: p.ending, ended: p.ended };
    } catch (e: any) {
      out.sqlPool = `unknown (${e?.message})`;
    }
    return `${name}: ${JSON.stringify(out)}`;
  };
  let sessions = '';
  const c = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    const r = await c.query(
      `SELECT pid, state, wait_event_type, wait_event, now() - query_start AS running_for, left(query, 200) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    sessions = r.rows.map((x) => JSON.stringify(x)).join('\n  ');
  } catch (e: any) {
    sessions = `unknown (${e?.message})`;
  } finally {
    await c.end().catch(() => undefined);
  }
  const handles = process.getActiveResourcesInfo().reduce<Record<string, number>>((m, h) => ((m[h] = (m[h] ?? 0) + 1), m), {});
  return [
    `\nslow close: ${step} has not ended after ${Date.now() - started} ms (${expect.getState().testPath ?? ''})`,
    of('service', app),
    of('sandbox', sandbox),
    `test pool: ${JSON.stringify({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount })}`,
    `database sessions:\n  ${sessions || '(none)'}`,
    `active handles: ${JSON.stringify(handles)}`,
    `last log lines:\n${logs().split('\n').slice(-40).join('\n')}\n`,
  ].join('\n');
}

/** JSON over real HTTP (fetch), answering status, headers and parsed body. */
export async function http(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, body: json, text };
}
