import { resolve } from 'node:path';
import { Client } from 'pg';
import { DevSecretStore } from '../../kernel/platform/config/env';
import { EmbeddedPostgres } from '../../kernel/platform/database/embedded-postgres';

async function reachable(url: string): Promise<boolean> {
  const c = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * The database an operator script works on: DATABASE_URL, or else the embedded PostgreSQL of
 * `npm start` (DATA_DIR, default .data; EMBEDDED_PG_PORT, default 54329), used while it runs or
 * started here and stopped after.
 */
export async function scriptDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL?.trim()) return { url: process.env.DATABASE_URL.trim(), stop: async () => undefined };
  const dataDir = resolve(process.env.DATA_DIR?.trim() || '.data');
  const port = Number(process.env.EMBEDDED_PG_PORT || 54329);
  const password = new DevSecretStore(resolve(dataDir, 'secrets.json')).get('EMBEDDED_PG_PASSWORD', 24);
  const embedded = new EmbeddedPostgres(dataDir, port, password, (m) => process.stderr.write(`${m}\n`));
  if (await reachable(embedded.url)) return { url: embedded.url, stop: async () => undefined };
  process.stderr.write(`starting the embedded PostgreSQL on port ${port} (data in ${dataDir}/postgres)\n`);
  await embedded.start();
  return { url: embedded.url, stop: () => embedded.stop() };
}
