import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { inDbSpan } from '../tracing/db-spans';

/**
 * The one database layer every adapter uses (it replaced five private copies): plain SQL over the
 * service's own pg pool, or inside a transaction on one client of that pool; typed rows, one
 * opaque transaction type for ports, constraint violations recognised in one place. The pool is
 * opened beside the TypeORM data source from the same settings (`openDatabase` in
 * `data-source.factory.ts`) and bound to it here, so callers keep passing the data source. TypeORM
 * keeps the migrations, the advisory locks and the entities; this file never touches its driver.
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

/** What runs SQL: a session, or the data source (its SQL pool). */
export type Db = Tx | DataSource;

/** What a `Tx` is underneath: the pool (each statement on its own) or the client of one transaction. */
class Session {
  constructor(readonly client: Pool | PoolClient) {}
}

const sqlPools = new WeakMap<DataSource, Pool>();

/** Binds the SQL pool opened for `ds` (only `openDatabase` does). */
export function bindSqlPool(ds: DataSource, pool: Pool): void {
  pool.on('error', () => undefined); // an idle client lost its connection: the next statement reconnects
  sqlPools.set(ds, pool);
}

/** The SQL pool of `ds`; a data source not opened by `openDatabase` has none. */
export function sqlPoolOf(ds: DataSource): Pool {
  const p = sqlPools.get(ds);
  if (!p) throw new Error('This data source has no SQL pool: open it with openDatabase() (data-source.factory.ts)');
  return p;
}

/** Ends the SQL pool of `ds` (shutdown); statements after it fail. */
export async function closeSqlPool(ds: DataSource): Promise<void> {
  const p = sqlPools.get(ds);
  if (p && !p.ending && !p.ended) await p.end();
}

/** The pool as a session: each statement on its own, no transaction. */
export function pool(ds: DataSource): Tx {
  return new Session(sqlPoolOf(ds)) as unknown as Tx;
}

/** The transaction of a unit of work in progress (see {@link unitOfWork}), for the code it runs. */
interface Unit {
  ds: DataSource;
  client: PoolClient;
  savepoints: number;
  open: boolean;
}
const units = new AsyncLocalStorage<Unit>();

/** The unit of work `ds` runs in here, while its transaction is open. */
function unitOf(ds: DataSource): Unit | undefined {
  const u = units.getStore();
  return u && u.ds === ds && u.open ? u : undefined;
}

/**
 * Runs `fn` in one transaction that everything it calls joins: each `transaction(ds, …)` inside
 * becomes a savepoint of it and each statement on `ds` runs on its client, so an effect written by
 * code that opens its own transactions (a report's handlers) commits, or rolls back, with what
 * the caller writes beside it (the job queue marks an item applied in the same transaction). Its
 * statements run one at a time on that one client. Work started inside that must not join it (a
 * background pass kicked from here) runs under {@link outsideUnitOfWork}.
 */
export async function unitOfWork<T>(ds: DataSource, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transaction(ds, async (tx) => {
    const unit: Unit = { ds, client: sessionOf(tx).client as PoolClient, savepoints: 0, open: true };
    try {
      return await units.run(unit, () => fn(tx));
    } finally {
      unit.open = false;
    }
  });
}

/** Runs `fn` outside any unit of work (its statements and transactions on the pool, as usual). */
export function outsideUnitOfWork<T>(fn: () => T): T {
  return units.exit(fn);
}

/**
 * Runs `fn` in one transaction on one client of the SQL pool (committed when it resolves, rolled
 * back when it throws; READ COMMITTED, the server's default). A client whose rollback fails is
 * discarded, not returned to the pool. Inside a {@link unitOfWork} on the same data source it is a
 * savepoint of the unit's transaction instead.
 */
export async function transaction<T>(ds: DataSource, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const unit = unitOf(ds);
  if (unit) return savepoint(unit, fn);
  const client = await sqlPoolOf(ds).connect();
  let broken: Error | undefined;
  try {
    await inDbSpan('BEGIN', () => client.query('BEGIN'));
    const out = await fn(new Session(client) as unknown as Tx);
    await inDbSpan('COMMIT', () => client.query('COMMIT'));
    return out;
  } catch (e) {
    await inDbSpan('ROLLBACK', () => client.query('ROLLBACK')).catch((r: Error) => (broken = r));
    throw e;
  } finally {
    client.release(broken);
  }
}

async function savepoint<T>(unit: Unit, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const name = `unit_${++unit.savepoints}`;
  await inDbSpan('SAVEPOINT', () => unit.client.query(`SAVEPOINT ${name}`));
  try {
    const out = await fn(new Session(unit.client) as unknown as Tx);
    await inDbSpan('RELEASE', () => unit.client.query(`RELEASE SAVEPOINT ${name}`));
    return out;
  } catch (e) {
    await inDbSpan('ROLLBACK TO', () => unit.client.query(`ROLLBACK TO SAVEPOINT ${name}`)).catch(() => undefined);
    throw e;
  }
}

/**
 * Rows and affected count of one statement (UPDATE/DELETE … RETURNING included), inside the
 * session's transaction when it has one, else straight on the pool (no TypeORM query runner per
 * statement: on the hot paths, creates and the engine, it cost more CPU than the statement).
 */
export async function exec<T = Record<string, any>>(
  db: Db,
  text: string | Prepared,
  params: unknown[] = [],
): Promise<{ rows: T[]; count: number }> {
  const client = db instanceof DataSource ? (unitOf(db)?.client ?? sqlPoolOf(db)) : sessionOf(db).client;
  const r = await inDbSpan(text, () =>
    typeof text === 'string' ? client.query(text, params) : client.query({ name: text.name, text: text.text, values: params }),
  );
  return { rows: r.rows as T[], count: r.rowCount ?? 0 };
}

/** A fixed statement kept prepared on each connection that runs it: see {@link prepared}. */
export interface Prepared {
  readonly name: string;
  readonly text: string;
}

const preparedNames = new Map<string, string>();

/**
 * A statement of a hot path, declared once at module level with a fixed text, that each
 * connection prepares by name the first time it runs it: PostgreSQL then parses, analyses and
 * plans it once per connection, and every later call only binds and executes (as postgres.js
 * does for every statement by default). Worth it on a path called per request (the recurrence
 * create spent a fifth of PostgreSQL's CPU on parsing its two inserts). Never for text built from
 * data: each name keeps one server-side statement per connection for the connection's life.
 * A name declared twice with another text is refused at load time (pg would refuse it later, per
 * connection, mid-request). Behind PgBouncer in transaction mode, use 1.21 or later with
 * `max_prepared_statements` set.
 */
export function prepared(name: string, text: string): Prepared {
  const known = preparedNames.get(name);
  if (known !== undefined && known !== text) throw new Error(`Prepared statement ${name} is already declared with another text`);
  preparedNames.set(name, text);
  return Object.freeze({ name, text });
}

function sessionOf(tx: Tx): Session {
  if (!((tx as unknown) instanceof Session)) throw new Error('Not a database session: open one with transaction() or pool()');
  return tx as unknown as Session;
}

/** The rows of one statement, typed by the caller (`rows<RecurrenceRow>(…)`). */
export async function rows<T = Record<string, any>>(db: Db, text: string | Prepared, params: unknown[] = []): Promise<T[]> {
  return (await exec<T>(db, text, params)).rows;
}

/** The first row of one statement, or null. */
export async function maybeOne<T = Record<string, any>>(db: Db, text: string | Prepared, params: unknown[] = []): Promise<T | null> {
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
