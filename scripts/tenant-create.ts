// `npm run tenant:create -- --name ACME --allow 203.0.113.0/24 [--allow 2001:db8::/32] [--rate-limit 500]`
// Creates a tenant and prints its id (alone, on stdout: `TENANT=$(npm run -s tenant:create -- …)`).
// Database: DATABASE_URL, or else the embedded PostgreSQL of `npm start` (DATA_DIR, default
// .data; EMBEDDED_PG_PORT, default 54329), started here when it is not running. Migrations run first.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../kernel/platform/database/data-source.factory';
import { runMigrationsLocked } from '../kernel/platform/database/migrate';
import { AppError } from '../kernel/platform/errors/app-error';
import { TenantEntity } from '../src/tenants/tenant.entity';
import { TenantsService } from '../src/tenants/tenants.service';
import { SqlTenantsRepository } from '../src/tenants/tenants.repository';
import { scriptDatabase } from './lib/database';

interface Args {
  name: string;
  allow: string[];
  rateLimit?: number;
}

function usage(msg: string): never {
  process.stderr.write(
    `${msg}\nusage: npm run tenant:create -- --name <name> --allow <cidr> [--allow <cidr>…] [--rate-limit <per minute>]\n`,
  );
  process.exit(2);
}

export function parseArgs(argv: string[]): Args {
  const out: Args = { name: '', allow: [] };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? usage(`${flag} needs a value`);
    if (flag === '--name') out.name = value();
    else if (flag === '--allow')
      out.allow.push(
        ...value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
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

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const db = await scriptDatabase();
  const ds = new DataSource({ ...dataSourceOptions(db.url, 2), entities: [TenantEntity] } as any);
  try {
    await ds.initialize();
    const ran = await runMigrationsLocked(ds);
    if (ran.length) process.stderr.write(`applied ${ran.length} migration(s)\n`);
    const t = await new TenantsService(new SqlTenantsRepository(ds)).create({
      name: args.name,
      allowedCidrs: args.allow,
      rateLimitPerMinute: args.rateLimit,
    });
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
