import { join } from 'node:path';
import { Pool, PoolConfig } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { registeredEntities } from './entity-registry';
import { GuardedPgClient } from './pg-client';
import { bindSqlPool } from './sql';

/**
 * Which part of a database an app owns: its migrations folder (relative to the repository root,
 * compiled or not) and, for an app that shares a database with another, its own schema. The
 * service owns `public` and `migrations/`; the sandbox app owns the `sandbox` schema and
 * `sandbox/migrations/`, so the two can share one PostgreSQL database without a shared table.
 */
export interface DatabaseLayout {
  migrationsDir: string;
  /** Unset: `public`. Set: created if missing, and every connection's search_path. */
  schema?: string;
}

export const SERVICE_DATABASE: DatabaseLayout = { migrationsDir: 'migrations' };

/** Where an app's migrations live, compiled (dist) or as sources (tests, ts-node). */
export function migrationsGlob(layout: DatabaseLayout = SERVICE_DATABASE): string {
  const compiled = __filename.endsWith('.js');
  const root = join(__dirname, '..', '..', '..');
  return join(root, layout.migrationsDir, compiled ? '*.js' : '*.ts');
}

/**
 * Connections the TypeORM data source keeps for what is still TypeORM's: the migrations at boot
 * (the advisory lock's session and the migration runner), the advisory lock each periodic job
 * holds while it runs (the billing engine, the API Pix reconciler and received-Pix check), and the
 * tenants' entity repository (behind a cache). Every statement and transaction runs on the SQL
 * pool, sized by DB_POOL_SIZE; so a replica opens at most DB_POOL_SIZE + 4 connections here (the
 * webhook worker's own pool, WEBHOOK_DB_POOL_SIZE, aside).
 */
export const DATA_SOURCE_POOL_SIZE = 4;

/** What a replica's database connections are made from (`DatabaseConfig`). */
export interface DatabaseSettings {
  url: string;
  /** Connections of the SQL pool (DB_POOL_SIZE). */
  poolSize?: number;
  statementTimeoutMs?: number;
  layout?: DatabaseLayout;
}

/**
 * The one place connection settings are made; the SQL pool and the data source's pool both take
 * them. TLS comes from the URL (`?sslmode=require`, read by pg for both); a connection that
 * cannot be made in 3 s fails, and the boot loop (`DatabaseLifecycle`, DB_CONNECT_RETRY_MAX_MS)
 * retries with backoff. Every client is a `GuardedPgClient`, so a connection lost while it is
 * checked out fails its unit of work instead of the process.
 */
export function connectionSettings(url: string, poolSize: number, statementTimeoutMs = 15000, schema?: string): PoolConfig {
  return {
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 3000,
    statement_timeout: statementTimeoutMs,
    idleTimeoutMillis: 30000,
    application_name: 'payments-platform',
    // each client listens for its own connection's loss while checked out (pg-client.ts)
    Client: GuardedPgClient,
  };
}

export function dataSourceOptions(
  url: string,
  poolSize = DATA_SOURCE_POOL_SIZE,
  statementTimeoutMs = 15000,
  layout: DatabaseLayout = SERVICE_DATABASE,
): DataSourceOptions {
  const { connectionString, ...extra } = connectionSettings(url, poolSize, statementTimeoutMs, layout.schema);
  return {
    type: 'postgres',
    url: connectionString,
    ...(layout.schema ? { schema: layout.schema } : {}),
    entities: registeredEntities(),
    migrations: [migrationsGlob(layout)],
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra,
  };
}

/**
 * The service's database: the TypeORM data source (migrations, advisory locks, entities) and
 * the SQL pool bound to it (`sql.ts`: every statement and transaction), both from `s`. The
 * pool connects on first use and is ended by `closeSqlPool(ds)`.
 */
export function openDatabase(s: DatabaseSettings): DataSource {
  const layout = s.layout ?? SERVICE_DATABASE;
  const ds = new DataSource(dataSourceOptions(s.url, DATA_SOURCE_POOL_SIZE, s.statementTimeoutMs, layout));
  bindSqlPool(ds, new Pool(connectionSettings(s.url, s.poolSize ?? 10, s.statementTimeoutMs, layout.schema)));
  return ds;
}
