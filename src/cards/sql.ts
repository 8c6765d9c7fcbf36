import { Db } from '../../kernel/platform/database/sql';

/** Something that runs SQL: the data source, or a transaction (platform/database's `Db`). */
export type Sql = Db;

/** The one raw-SQL helper (platform/database): rows of one statement, on the pool or in the transaction. */
export { rows, rows as poolRows } from '../../kernel/platform/database/sql';

export { rfc3339 } from '../../kernel/common/formats/rfc3339';
