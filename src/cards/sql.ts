import { Db } from '../platform/database/sql';

/** Something that runs SQL: the data source, or a transaction (platform/database's `Db`). */
export type Sql = Db;

/** The one raw-SQL helper (platform/database): rows of one statement, on the pool or in the transaction. */
export { rows, rows as poolRows } from '../platform/database/sql';

/** RFC 3339 UTC with `Z` and whole seconds, as the spec shows timestamps. */
export function rfc3339(d: Date | string): string {
  return new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
