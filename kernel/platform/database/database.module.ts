import { DynamicModule, Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { DatabaseConfig } from '../config/platform.config';
import { DatabaseLayout, openDatabase, SERVICE_DATABASE } from './data-source.factory';
import { DatabaseLifecycle } from './database.lifecycle';
import { DatabaseState } from './database.state';

@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  /** The app's database: `layout` says which migrations and schema are its own. */
  static forRoot(layout: DatabaseLayout = SERVICE_DATABASE): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        DatabaseState,
        {
          provide: DataSource,
          inject: [DatabaseConfig],
          useFactory: (c: DatabaseConfig) =>
            openDatabase({ url: c.url!, poolSize: c.poolSize, statementTimeoutMs: c.statementTimeoutMs, layout }),
        },
        DatabaseLifecycle,
      ],
      exports: [DataSource, DatabaseState, DatabaseLifecycle],
    };
  }

  /** The pools (the SQL pool and the data source's) close last, after timers and in-flight work have stopped. */
  async onApplicationShutdown(): Promise<void> {
    await this.moduleRef.get(DatabaseLifecycle).close();
  }
}
