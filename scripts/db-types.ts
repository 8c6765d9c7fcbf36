// `npm run db:types`: migrates a scratch database on DATABASE_URL's server (or the embedded
// PostgreSQL of `npm start`), reads every table's columns and writes their row types to
// kernel/platform/database/tables.ts, and the sandbox app's (its own schema) to sandbox/src/tables.ts.
// Run it after adding a migration; a test fails until you do.
// The generator writes Prettier's layout itself (npm run lint checks it), so no formatter runs here.
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { scriptDatabase } from './lib/database';
import { SANDBOX_DATABASE } from '../sandbox/src/sandbox-database';
import { SERVICE_DATABASE } from '../kernel/platform/database/data-source.factory';
import { migratedScratchDatabase } from './lib/scratch-database';
import { SANDBOX_TABLES, SERVICE_TABLES, tableTypesSource } from './lib/table-types';

export const TABLES_FILE = resolve(__dirname, '..', 'kernel', 'platform', 'database', 'tables.ts');
export const SANDBOX_TABLES_FILE = resolve(__dirname, '..', 'sandbox', 'src', 'tables.ts');
export const BOTH_APPS = [SERVICE_DATABASE, SANDBOX_DATABASE];

async function main(): Promise<void> {
  const server = await scriptDatabase();
  const scratch = await migratedScratchDatabase(server.url, BOTH_APPS);
  try {
    writeFileSync(TABLES_FILE, await tableTypesSource(scratch.url, SERVICE_TABLES));
    writeFileSync(SANDBOX_TABLES_FILE, await tableTypesSource(scratch.url, SANDBOX_TABLES));
    process.stderr.write(`wrote ${TABLES_FILE} and ${SANDBOX_TABLES_FILE}\n`);
  } finally {
    await scratch.drop();
    await server.stop();
  }
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`${e?.stack ?? e}\n`);
    process.exit(1);
  });
}
