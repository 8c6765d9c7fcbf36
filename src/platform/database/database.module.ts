import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { DatabaseConfig } from '../config/platform.config';
import { createDataSource } from './data-source.factory';
import { DatabaseLifecycle } from './database.lifecycle';
import { DatabaseState } from './database.state';

@Global()
@Module({
  providers: [
    DatabaseState,
    {
      provide: DataSource,
      inject: [DatabaseConfig],
      useFactory: (c: DatabaseConfig) => createDataSource(c.url!, c.poolSize, c.statementTimeoutMs),
    },
    DatabaseLifecycle,
  ],
  exports: [DataSource, DatabaseState, DatabaseLifecycle],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(private readonly moduleRef: ModuleRef) {}

  /** The pool closes last, after timers and in-flight work have stopped. */
  async onApplicationShutdown(): Promise<void> {
    await this.moduleRef.get(DatabaseLifecycle).close();
  }
}
