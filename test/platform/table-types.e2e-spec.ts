import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { BOTH_APPS, SANDBOX_TABLES_FILE, TABLES_FILE } from '../../scripts/db-types';
import { migratedScratchDatabase } from '../../scripts/lib/scratch-database';
import { SANDBOX_TABLES, tableTypesSource } from '../../scripts/lib/table-types';
import { serverUrl } from '../support/test-app';

jest.setTimeout(120_000);

describe('row types generated from the migrated schemas (kernel/platform/database/tables.ts, sandbox/src/tables.ts)', () => {
  let db: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    db = await migratedScratchDatabase(serverUrl(), BOTH_APPS);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('the committed file is what the migrations make: a migration without `npm run db:types` fails here', async () => {
    expect(await tableTypesSource(db.url)).toBe(readFileSync(TABLES_FILE, 'utf8'));
    expect(await tableTypesSource(db.url, SANDBOX_TABLES)).toBe(readFileSync(SANDBOX_TABLES_FILE, 'utf8'));
  });

  it("the service's tables name no sandbox table: those live in the sandbox app's schema", async () => {
    const service = readFileSync(TABLES_FILE, 'utf8');
    expect(service).not.toMatch(/\bsandbox_/);
    expect(readFileSync(SANDBOX_TABLES_FILE, 'utf8')).toContain('  sandbox_bank_recurrences: {');
  });

  it('a column change shows in the types, as node-postgres returns the value (int8 as string, nullable as | null)', async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    try {
      await c.query(`ALTER TABLE links ADD COLUMN refunded_cents bigint, ADD COLUMN refund_count integer NOT NULL DEFAULT 0`);
    } finally {
      await c.end();
    }
    const source = await tableTypesSource(db.url);
    expect(source).not.toBe(readFileSync(TABLES_FILE, 'utf8'));
    const links = source.slice(source.indexOf('  links: {'), source.indexOf('};', source.indexOf('  links: {')));
    expect(links).toContain('refunded_cents: string | null;');
    expect(links).toContain('refund_count: number;');
  });
});
