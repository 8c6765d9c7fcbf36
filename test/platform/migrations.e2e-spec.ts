import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePorts } from '../support/ports';
import { spawnService } from '../support/service-process';
import { freshDatabase, TEST_ADMIN_KEY } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const MIGRATIONS = readdirSync(join(ROOT, 'migrations')).filter((f) => f.endsWith('.ts')).length;

function npmRun(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn('npm', ['run', '-s', script, '--', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

async function query<T = any>(url: string, sql: string): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

const hasCheckoutBrake = async (url: string) =>
  (await query(url, `SELECT 1 FROM information_schema.columns WHERE table_name = 'links' AND column_name = 'checkout_attempts_per_minute'`))
    .length === 1;

describe('npm run migration:* against DATABASE_URL', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    db = await freshDatabase('mig');
    env = { ...process.env, DATABASE_URL: db.url };
  });
  afterAll(() => db.drop());

  it('run applies every migration once; a second run has nothing to do', async () => {
    const first = await npmRun('migration:run', [], env);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain(`applied ${MIGRATIONS} migration(s)`);
    const second = await npmRun('migration:run', [], env);
    expect(second.stderr).toContain('No migrations are pending');
    expect((await query(db.url, 'SELECT count(*)::int AS n FROM typeorm_migrations'))[0].n).toBe(MIGRATIONS);
  }, 90_000);

  it('revert undoes the last migration, and run applies it again', async () => {
    // The newest migration file, whatever it is (each feature adds its own).
    const last = readdirSync(join(ROOT, 'migrations'))
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .pop()!;
    const [, ts, name] = /^(\d+)-(\w+)\.ts$/.exec(last)!;
    const applied = async () =>
      (await query(db.url, `SELECT count(*)::int AS n FROM typeorm_migrations WHERE name = $1`.replace('$1', `'${name}${ts}'`)))[0].n;
    expect(await applied()).toBe(1);
    const r = await npmRun('migration:revert', [], env);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain(`reverted ${name}`);
    expect(await applied()).toBe(0);
    const show = await npmRun('migration:show', [], env);
    expect(show.status).toBe(1);
    await npmRun('migration:run', [], env);
    expect(await applied()).toBe(1);
    expect(await hasCheckoutBrake(db.url)).toBe(true);
  }, 90_000);

  it('generate writes nothing when the entities match the schema, and a migration when they differ', async () => {
    const out = mkdtempSync(join(tmpdir(), 'pp-gen-'));
    const none = await npmRun('migration:generate', [join(out, 'Nothing')], env);
    expect(none.status).toBe(0);
    expect(none.stderr).toContain('nothing to generate');
    expect(readdirSync(out)).toEqual([]);
    // The tenant entity now has a column the database lacks (as after adding one to the entity).
    await query(db.url, 'ALTER TABLE tenants DROP COLUMN updated_at');
    const gen = await npmRun('migration:generate', [join(out, 'TenantsUpdatedAt')], env);
    expect(gen.status).toBe(0);
    const files = readdirSync(out);
    expect(files).toEqual([expect.stringMatching(/^\d{13}-TenantsUpdatedAt\.ts$/)]);
    const text = readFileSync(join(out, files[0]), 'utf8');
    expect(text).toMatch(/export class TenantsUpdatedAt\d{13} implements MigrationInterface/);
    expect(text).toContain('ALTER TABLE \\"tenants\\" ADD \\"updated_at\\" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()');
    expect(text).toContain('ALTER TABLE \\"tenants\\" DROP COLUMN \\"updated_at\\"');
    rmSync(out, { recursive: true, force: true });
  }, 90_000);
});

describe('npm run migration:run without DATABASE_URL', () => {
  it('migrates the embedded PostgreSQL of DATA_DIR, started and stopped for the command', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pp-mig-embedded-'));
    chmodSync(dataDir, 0o755);
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, EMBEDDED_PG_PORT: String((await freePorts(1))[0]) };
    delete env.DATABASE_URL;
    try {
      const r = await npmRun('migration:run', [], env);
      expect(r.status).toBe(0);
      expect(r.stderr).toContain('starting the embedded PostgreSQL');
      expect(r.stderr).toContain(`applied ${MIGRATIONS} migration(s)`);
      const again = await npmRun('migration:run', [], env);
      expect(again.stderr).toContain('No migrations are pending');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('migrations at boot', () => {
  it('three replicas booting at once on one empty database all become ready; each migration runs once', async () => {
    const db = await freshDatabase('boot3');
    const procs = await Promise.all(
      [1, 2, 3].map(async (i) =>
        spawnService({ DATABASE_URL: db.url, ADMIN_API_KEY: TEST_ADMIN_KEY, DATA_DIR: mkdtempSync(join(tmpdir(), `pp-boot${i}-`)) }),
      ),
    );
    try {
      await Promise.all(procs.map((p) => p.waitReady()));
      const rows = await query(db.url, 'SELECT name, count(*)::int AS n FROM typeorm_migrations GROUP BY name');
      expect(rows).toHaveLength(MIGRATIONS);
      expect(rows.every((r) => r.n === 1)).toBe(true);
      // Without the lock the losers fail on objects the winner made, log it and retry.
      for (const p of procs) expect(p.output()).not.toMatch(/database not ready|already exists/);
    } finally {
      for (const p of procs) p.proc.kill('SIGKILL');
      await db.drop();
    }
  }, 120_000);
});
