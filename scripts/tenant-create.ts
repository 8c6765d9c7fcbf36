// `npm run tenant:create -- --name ACME --allow 203.0.113.0/24 [--allow 2001:db8::/32] [--rate-limit 500]`
// Creates a tenant and prints its id (alone, on stdout: `TENANT=$(npm run -s tenant:create -- …)`).
// Database: DATABASE_URL, or else the embedded PostgreSQL of `npm start` (DATA_DIR, default
// .data; EMBEDDED_PG_PORT, default 54329), started here when it is not running. Migrations run first.
import 'reflect-metadata';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { DevSecretStore } from '../src/platform/config/env';
import { dataSourceOptions } from '../src/platform/database/data-source.factory';
import { EmbeddedPostgres } from '../src/platform/database/embedded-postgres';
import { AppError } from '../src/platform/errors/app-error';
import { TenantEntity } from '../src/tenants/tenant.entity';
import { TenantsService } from '../src/tenants/tenants.service';
import { TypeOrmTenantsRepository } from '../src/tenants/tenants.repository';

interface Args {
  name: string;
  allow: string[];
  rateLimit?: number;
}

function usage(msg: string): never {
  process.stderr.write(`${msg}\nusage: npm run tenant:create -- --name <name> --allow <cidr> [--allow <cidr>…] [--rate-limit <per minute>]\n`);
  process.exit(2);
}

export function parseArgs(argv: string[]): Args {
  const out: Args = { name: '', allow: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? usage(`${flag} needs a value`);
    if (flag === '--name') out.name = value();
    else if (flag === '--allow') out.allow.push(...value().split(',').map((s) => s.trim()).filter(Boolean));
    else if (flag === '--rate-limit') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 100000) usage('--rate-limit must be an integer between 1 and 100000');
      out.rateLimit = n;
    } else usage(`unknown argument ${argv[i]}`);
  }
  if (!out.name.trim()) usage('--name is required');
  if (!out.allow.length) usage('--allow is required (the IPs or CIDRs the tenant calls from)');
  return out;
}

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

/** DATABASE_URL, or the embedded PostgreSQL (running, or started here and stopped after). */
async function database(): Promise<{ url: string; stop: () => Promise<void> }> {
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

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const db = await database();
  const ds = new DataSource({ ...dataSourceOptions(db.url, 2), entities: [TenantEntity] } as any);
  try {
    await ds.initialize();
    const ran = await ds.runMigrations({ transaction: 'each' });
    if (ran.length) process.stderr.write(`applied ${ran.length} migration(s)\n`);
    const t = await new TenantsService(new TypeOrmTenantsRepository(ds)).create({ name: args.name, allowedCidrs: args.allow, rateLimitPerMinute: args.rateLimit });
    process.stderr.write(`tenant "${t.name}" created; allow-list ${t.allowedCidrs.join(', ')}; ${t.rateLimitPerMinute} requests/minute\n`);
    process.stdout.write(`${t.tenantId}\n`);
  } catch (e: any) {
    if (e instanceof AppError) {
      process.stderr.write(`${e.message}${e.extras.details ? `: ${e.extras.details.map((d) => d.message).join('; ')}` : ''}\n`);
      process.exitCode = 1;
    } else throw e;
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await db.stop();
  }
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`tenant:create failed: ${e?.message ?? e}\n`);
    process.exit(1);
  });
}
