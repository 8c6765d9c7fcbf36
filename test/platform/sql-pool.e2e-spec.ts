import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { DATA_SOURCE_POOL_SIZE, openDatabase } from '../../kernel/platform/database/data-source.factory';
import { closeSqlPool, exec, pool, prepared, rows, sqlPoolOf, sqlStateOf, transaction } from '../../kernel/platform/database/sql';
import { freshDatabase, http, startTestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');

/** A file's code without its comments (a comment may say "driver"; code may not reach it). */
function codeOf(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1');
}

describe('the SQL layer owns its pool', () => {
  it("does not reach into TypeORM's driver or its private pool", () => {
    const code = codeOf('kernel/platform/database/sql.ts');
    expect(code).toContain('query('); // the check reads the real file
    expect(code).not.toMatch(/\bdriver\b/);
    expect(code).not.toMatch(/\bmaster\b/);
    expect(code).not.toMatch(/createQueryRunner|queryRunner/);
  });

  describe('statements and transactions on the pool opened from the same settings', () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let ds: DataSource;

    beforeAll(async () => {
      db = await freshDatabase('sqlpool');
      // The data source is never initialized: whatever runs here runs on the SQL pool alone.
      ds = openDatabase({ url: db.url, poolSize: 2, statementTimeoutMs: 300 });
      await rows(ds, 'CREATE TABLE t (id int PRIMARY KEY)');
    });
    afterAll(async () => {
      await closeSqlPool(ds);
      await db?.drop();
    });

    it('runs statements, on the pool and in a transaction, without TypeORM connecting', async () => {
      expect(ds.isInitialized).toBe(false);
      expect((await exec(ds, 'INSERT INTO t VALUES (1), (2)')).count).toBe(2);
      expect(await rows(pool(ds), 'SELECT id FROM t ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);
      const [app] = await rows(ds, 'SELECT current_setting($1) AS name', ['application_name']);
      expect(app.name).toBe('payments-platform');
    });

    it('prepares a declared statement once per connection and runs it by name after that, on the pool and in a transaction', async () => {
      const insert = prepared('sql_pool_spec.insert', 'INSERT INTO t VALUES ($1) RETURNING id');
      expect(await rows(ds, insert, [100])).toEqual([{ id: 100 }]);
      await transaction(ds, async (tx) => {
        expect(await rows(tx, insert, [101])).toEqual([{ id: 101 }]);
        expect(await rows(tx, insert, [102])).toEqual([{ id: 102 }]);
        // the server holds it under its name on this connection, and only once
        const held = await rows(tx, 'SELECT name, statement FROM pg_prepared_statements');
        expect(held).toEqual([{ name: 'sql_pool_spec.insert', statement: 'INSERT INTO t VALUES ($1) RETURNING id' }]);
      });
      // a constraint violation through a prepared statement is the same SQLSTATE, and nothing is half-written
      const dup = await exec(ds, insert, [100]).catch((e: unknown) => e);
      expect(sqlStateOf(dup)).toBe('23505');
      expect(await rows(ds, 'SELECT id FROM t WHERE id >= 100 ORDER BY id')).toEqual([{ id: 100 }, { id: 101 }, { id: 102 }]);
      await exec(ds, 'DELETE FROM t WHERE id >= 100');
    });

    it('refuses a statement name declared again with another text (the same text is the same statement)', () => {
      expect(prepared('sql_pool_spec.twice', 'SELECT 1').text).toBe('SELECT 1');
      expect(prepared('sql_pool_spec.twice', 'SELECT 1').name).toBe('sql_pool_spec.twice');
      expect(() => prepared('sql_pool_spec.twice', 'SELECT 2')).toThrow(/already declared with another text/);
    });

    it('commits a transaction on one client and rolls it back when the callback throws', async () => {
      await transaction(ds, async (tx) => {
        await exec(tx, 'INSERT INTO t VALUES (10)');
        const [a] = await rows(tx, 'SELECT pg_backend_pid() AS pid, txid_current_if_assigned() AS x');
        const [b] = await rows(tx, 'SELECT pg_backend_pid() AS pid, txid_current_if_assigned() AS x');
        expect(b).toEqual(a); // one session, one transaction
        expect(a.x).not.toBeNull();
      });
      await expect(
        transaction(ds, async (tx) => {
          await exec(tx, 'INSERT INTO t VALUES (11)');
          await exec(tx, 'INSERT INTO t VALUES (10)'); // unique violation
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await rows(ds, 'SELECT id FROM t WHERE id >= 10 ORDER BY id')).toEqual([{ id: 10 }]);
      const p = sqlPoolOf(ds);
      expect(p.totalCount - p.idleCount).toBe(0); // every client went back
    });

    it('honours statement_timeout, on the pool and in a transaction', async () => {
      expect((await rows(ds, 'SHOW statement_timeout'))[0].statement_timeout).toBe('300ms');
      const e = await rows(ds, 'SELECT pg_sleep(2)').catch((x) => x);
      expect(sqlStateOf(e)).toBe('57014');
      const inTx = await transaction(ds, (tx) => rows(tx, 'SELECT pg_sleep(2)')).catch((x) => x);
      expect(sqlStateOf(inTx)).toBe('57014');
    });

    it('never opens more connections than its size', async () => {
      await Promise.all(Array.from({ length: 6 }, () => rows(ds, 'SELECT pg_sleep(0.05)')));
      const [n] = await rows(
        ds,
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'payments-platform'`,
      );
      expect(n.n).toBeLessThanOrEqual(2);
      expect(sqlPoolOf(ds).totalCount).toBeLessThanOrEqual(2);
    });

    it('refuses a data source it was not opened for, rather than falling back', () => {
      expect(() => pool(new DataSource({ type: 'postgres', url: db.url }))).toThrow(/openDatabase/);
    });
  });

  describe('in the application', () => {
    it('reflects the pool in /health/ready and ends it on app close', async () => {
      const t = await startTestApp();
      let closed = false;
      try {
        const ds = t.app.get(DataSource);
        const sqlPool = sqlPoolOf(ds);
        expect(ds.options).toMatchObject({ extra: { max: DATA_SOURCE_POOL_SIZE, application_name: 'payments-platform' } });
        expect(sqlPool.options).toMatchObject({ max: 10, statement_timeout: 15000, application_name: 'payments-platform' });
        expect((await http(t.url, 'GET', '/health/ready')).status).toBe(200);

        await t.close();
        closed = true;
        expect(sqlPool.ended).toBe(true);
        expect(ds.isInitialized).toBe(false);
      } finally {
        if (!closed) await t.close();
      }
    });

    it('answers 503 on /health/ready when the SQL pool is gone', async () => {
      const t = await startTestApp();
      try {
        await closeSqlPool(t.app.get(DataSource));
        const ready = await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey });
        expect(ready.status).toBe(503);
        expect(ready.body.details.database.status).toBe('down');
      } finally {
        await t.close();
      }
    });
  });
});
