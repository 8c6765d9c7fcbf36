import { DataSource, EntityManager } from 'typeorm';

/** Something that runs SQL: the data source, or a transaction's manager. */
export type Sql = DataSource | EntityManager;

/**
 * One statement straight on the data source's pg pool, outside TypeORM's query runner
 * (no runner object, no subscriber broadcast): for the hot single-statement writes. Inside a
 * transaction, pass the manager to `rows` instead.
 */
export async function poolRows<T = any>(ds: DataSource, text: string, params: unknown[] = []): Promise<T[]> {
  const pool = (ds.driver as unknown as { master?: { query: (t: string, p: unknown[]) => Promise<{ rows: T[] }> } }).master;
  if (!pool) return rows<T>(ds, text, params);
  return (await pool.query(text, params)).rows;
}

/**
 * Rows of a raw query. TypeORM answers `[rows, rowCount]` for UPDATE/DELETE (also behind a
 * CTE) and `rows` otherwise; this makes both plain rows.
 */
export async function rows<T = any>(db: Sql, text: string, params: unknown[] = []): Promise<T[]> {
  const r = await db.query(text, params);
  return Array.isArray(r) && r.length === 2 && Array.isArray(r[0]) && typeof r[1] === 'number' ? r[0] : r;
}

/** RFC 3339 UTC with `Z` and whole seconds, as the spec shows timestamps. */
export function rfc3339(d: Date | string): string {
  return new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
