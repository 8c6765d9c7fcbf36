import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { createApp } from '../../src/app.factory';
import { CONFIG_SECTIONS } from '../../src/config.sections';
import { loadConfig } from '../../src/platform/config/config';
import { DatabaseLifecycle } from '../../src/platform/database/database.lifecycle';

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

/** A fresh, empty database on the test server; dropped by the returned function. */
export async function freshDatabase(prefix = 't'): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: withDatabase(serverUrl(), 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
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
  databaseUrl: string;
  dataDir: string;
  adminKey: string;
  /** Every log line written so far, as text. */
  logs(): string;
  /** Plain SQL against the app's database (for assertions only). */
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

/** Boots the real application in this process, on a random port, against a fresh database. */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const db = opts.databaseUrl ? null : await freshDatabase();
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
  const config = loadConfig(CONFIG_SECTIONS, env);
  const app = await createApp(config, { logDestination: sink });
  await app.listen(0, '127.0.0.1');
  const addr = app.getHttpServer().address() as import('node:net').AddressInfo;
  const url = `http://127.0.0.1:${addr.port}`;
  if (!opts.noWait) await app.get(DatabaseLifecycle).whenReady();
  const pg = new Client({ connectionString: databaseUrl });
  let pgConnected = false;
  return {
    app,
    url,
    databaseUrl,
    dataDir,
    adminKey: TEST_ADMIN_KEY,
    logs: () => captured,
    async sql(text, params) {
      if (!pgConnected) {
        await pg.connect();
        pgConnected = true;
      }
      return (await pg.query(text, params as any[])).rows;
    },
    async close() {
      if (pgConnected) await pg.end().catch(() => undefined);
      await app.close();
      await db?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
