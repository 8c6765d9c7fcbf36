import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DatabaseLayout, dataSourceOptions, SERVICE_DATABASE } from '../../kernel/platform/database/data-source.factory';
import { runMigrationsLocked } from '../../kernel/platform/database/migrate';

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function admin<T>(serverUrl: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * A new database on the server of `serverUrl` with every migration of each layout applied (the
 * service's by default; the sandbox's in its schema too when given); `drop` removes it.
 */
export async function migratedScratchDatabase(
  serverUrl: string,
  layouts: DatabaseLayout[] = [SERVICE_DATABASE],
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `scratch_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(serverUrl, name);
  const drop = () => admin(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined);
  for (const layout of layouts) {
    const ds = new DataSource(dataSourceOptions(url, 2, 15000, layout));
    try {
      await ds.initialize();
      if (layout.schema) await ds.query(`CREATE SCHEMA IF NOT EXISTS "${layout.schema}"`);
      await runMigrationsLocked(ds);
    } catch (e) {
      await ds.destroy().catch(() => undefined);
      await drop();
      throw e;
    }
    await ds.destroy();
  }
  return { url, drop };
}
