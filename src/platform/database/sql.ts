import { DataSource, EntityManager } from 'typeorm';

/**
 * The one database layer every adapter uses (it replaced five private copies): plain SQL over the pg pool or inside a
 * transaction, typed rows, one opaque transaction type for ports, constraint violations
 * recognised in one place. TypeORM stays for the data source, the migrations and the
 * transaction plumbing; nothing outside this file reaches into its driver.
 */

export type { Tx } from '../../common/tx';
import type { Tx } from '../../common/tx';
export type { Row, Tables } from './tables';

/**
 * A row whose `K` columns the statement selected as `col::text` (a date as 'YYYY-MM-DD', so no
 * time zone can move it): `rows<AsText<Row<'pix_billings'>, 'due_date'>>(…)`.
 */
export type AsText<R, K extends keyof R> = Omit<R, K> & { [P in K]: null extends R[P] ? string | null : string };

/** A row whose nullable `K` columns the statement guarantees are set (its WHERE or JOIN rules NULL out). */
export type Present<R, K extends keyof R> = Omit<R, K> & { [P in K]: Exclude<R[P], null> };

/** What runs SQL: a session, or the data source (its pool). */
export type Db = Tx | DataSource;

function managerOfDb(db: Db): EntityManager {
  return db instanceof DataSource ? db.manager : (db as unknown as EntityManager);
}

/** The pool as a session: each statement on its own, no transaction. */
export function pool(ds: DataSource): Tx {
  return ds.manager as unknown as Tx;
}

/** Runs `fn` in one transaction (committed when it resolves, rolled back when it throws). */
export function transaction<T>(ds: DataSource, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return ds.transaction((m) => fn(m as unknown as Tx));
}

/**
 * Rows and affected count of one statement (UPDATE/DELETE … RETURNING included), inside the
 * session's transaction when it has one. Outside a transaction the statement goes straight to
 * the pg pool: a TypeORM query runner per statement costs more CPU than the statement on the
 * hot paths (creates, the engine).
 */
export async function exec<T = Record<string, any>>(db: Db, text: string, params: unknown[] = []): Promise<{ rows: T[]; count: number }> {
  const m = managerOfDb(db);
  if (!m.queryRunner) {
    const master = (
      m.dataSource.driver as unknown as { master?: { query: (t: string, p: unknown[]) => Promise<{ rows: T[]; rowCount: number | null }> } }
    ).master;
    if (master) {
      const r = await master.query(text, params);
      return { rows: r.rows, count: r.rowCount ?? 0 };
    }
  }
  const runner = m.queryRunner ?? m.dataSource.createQueryRunner();
  try {
    const r = await runner.query(text, params as any[], true);
    return { rows: (r.records ?? []) as T[], count: r.affected ?? 0 };
  } finally {
    if (!m.queryRunner) await runner.release();
  }
}

/** The rows of one statement, typed by the caller (`rows<RecurrenceRow>(…)`). */
export async function rows<T = Record<string, any>>(db: Db, text: string, params: unknown[] = []): Promise<T[]> {
  return (await exec<T>(db, text, params)).rows;
}

/** The first row of one statement, or null. */
export async function maybeOne<T = Record<string, any>>(db: Db, text: string, params: unknown[] = []): Promise<T | null> {
  return (await exec<T>(db, text, params)).rows[0] ?? null;
}

/** The SQLSTATE of a PostgreSQL error, as pg raises it or as TypeORM wraps it. */
export function sqlStateOf(e: unknown): string | undefined {
  const err = e as { code?: unknown; driverError?: { code?: unknown } } | null;
  const code = err?.driverError?.code ?? err?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** Whether `e` is a unique violation (SQLSTATE 23505), of `constraint` when given. */
export function isUniqueViolation(e: unknown, constraint?: string): boolean {
  if (sqlStateOf(e) !== '23505') return false;
  if (!constraint) return true;
  const err = e as { constraint?: unknown; driverError?: { constraint?: unknown } };
  return String(err.constraint ?? err.driverError?.constraint ?? '') === constraint;
}
