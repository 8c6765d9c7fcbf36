// `npm run migration:run` | `migration:revert` | `migration:generate -- migrations/Name` | `migration:show`
// against DATABASE_URL, or else the embedded PostgreSQL of `npm start` (see scripts/lib/database.ts).
// run and revert hold the same advisory lock as the boot-time migrations, so they never race a
// replica that is starting. generate compares the entities with the database's schema and writes
// the difference as a migration class (nothing is written when there is none).
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import '../src/app.module'; // importing the modules registers every entity
import { dataSourceOptions } from '../kernel/platform/database/data-source.factory';
import { revertLastMigrationLocked, runMigrationsLocked } from '../kernel/platform/database/migrate';
import { scriptDatabase } from './lib/database';

function usage(msg: string): never {
  process.stderr.write(
    `${msg}\nusage: typeorm.ts migration:run | migration:revert | migration:show | migration:generate <migrations/Name>\n`,
  );
  process.exit(2);
}

/** The migration class TypeORM's CLI would write for these statements. */
export function migrationSource(name: string, timestamp: number, up: string[], down: string[]): string {
  const q = (s: string) => `    await queryRunner.query(${JSON.stringify(s)});`;
  return `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${name}${timestamp} implements MigrationInterface {
  name = '${name}${timestamp}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${up.map(q).join('\n')}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${down.map(q).join('\n')}
  }
}
`;
}

async function generate(ds: DataSource, target: string): Promise<void> {
  const sql = await ds.driver.createSchemaBuilder().log();
  if (!sql.upQueries.length) {
    process.stderr.write('No changes in the entities: nothing to generate.\n');
    return;
  }
  const name = basename(target).replace(/[^A-Za-z0-9]/g, '');
  if (!name || !/^[A-Za-z]/.test(name)) usage('the migration name must start with a letter');
  const timestamp = Date.now();
  const file = resolve(dirname(target) === '.' ? 'migrations' : dirname(target), `${timestamp}-${name}.ts`);
  const up = sql.upQueries.map((q) => q.query);
  const down = sql.downQueries.map((q) => q.query).reverse();
  writeFileSync(file, migrationSource(name, timestamp, up, down));
  process.stderr.write(`wrote ${file} (${up.length} statement(s))\n`);
  process.stdout.write(`${file}\n`);
}

async function main(): Promise<void> {
  const [command, arg] = process.argv.slice(2);
  if (!['migration:run', 'migration:revert', 'migration:show', 'migration:generate'].includes(command))
    usage(`unknown command ${command ?? ''}`);
  if (command === 'migration:generate' && !arg) usage('migration:generate needs a name, e.g. migrations/AddColumn');
  const db = await scriptDatabase();
  const ds = new DataSource(dataSourceOptions(db.url, 3));
  try {
    await ds.initialize();
    if (command === 'migration:run') {
      const ran = await runMigrationsLocked(ds);
      process.stderr.write(
        ran.length ? `applied ${ran.length} migration(s): ${ran.map((m) => m.name).join(', ')}\n` : 'No migrations are pending.\n',
      );
    } else if (command === 'migration:revert') {
      const before = await ds.query(`SELECT name FROM typeorm_migrations ORDER BY id DESC LIMIT 1`).catch(() => []);
      if (!before.length) process.stderr.write('No migration has been applied: nothing to revert.\n');
      else {
        await revertLastMigrationLocked(ds);
        process.stderr.write(`reverted ${before[0].name}\n`);
      }
    } else if (command === 'migration:show') {
      const pending = await ds.showMigrations();
      process.stderr.write(pending ? 'Some migrations are pending.\n' : 'No migrations are pending.\n');
      process.exitCode = pending ? 1 : 0;
    } else {
      await generate(ds, arg);
    }
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await db.stop();
  }
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`${process.argv[2] ?? 'typeorm'} failed: ${e?.message ?? e}\n`);
    process.exit(1);
  });
}
