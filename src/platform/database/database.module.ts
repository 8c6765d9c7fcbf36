import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { DatabaseConfig } from '../config/platform.config';
import { openDatabase } from './data-source.factory';
import { DatabaseLifecycle } from './database.lifecycle';
import { DatabaseState } from './database.state';

@Global()
@Module({
  providers: [
    DatabaseState,
    {
      provide: DataSource,
      inject: [DatabaseConfig],
      useFactory: (c: DatabaseConfig) => openDatabase({ url: c.url!, poolSize: c.poolSize, statementTimeoutMs: c.statementTimeoutMs }),
    },
    DatabaseLifecycle,
  ],
  exports: [DataSource, DatabaseState, DatabaseLifecycle],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  /** The pools (the SQL pool and the data source's) close last, after timers and in-flight work have stopped. */
  async onApplicationShutdown(): Promise<void> {
    await this.moduleRef.get(DatabaseLifecycle).close();
  }
}
