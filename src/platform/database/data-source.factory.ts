import { join } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { registeredEntities } from './entity-registry';

/** Where the migrations live, compiled (dist) or as sources (tests, ts-node). */
export function migrationsGlob(): string {
  const compiled = __filename.endsWith('.js');
  const root = join(__dirname, '..', '..', '..');
  return join(root, 'migrations', compiled ? '*.js' : '*.ts');
}

export function dataSourceOptions(url: string, poolSize = 10, statementTimeoutMs = 15000): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: registeredEntities(),
    migrations: [migrationsGlob()],
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: poolSize,
      connectionTimeoutMillis: 3000,
      statement_timeout: statementTimeoutMs,
      idleTimeoutMillis: 30000,
      application_name: 'payments-platform',
    },
  };
}

export function createDataSource(url: string, poolSize?: number, statementTimeoutMs?: number): DataSource {
  return new DataSource(dataSourceOptions(url, poolSize, statementTimeoutMs));
}
