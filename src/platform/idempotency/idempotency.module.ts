import { Global, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DatabaseState } from '../database/database.state';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore, PgIdempotencyStore } from './idempotency.store';

/** Deletes expired records hourly (one replica per run). */
@Injectable()
class IdempotencyPurger implements OnModuleInit, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly db: DatabaseState,
  ) {}

  onModuleInit(): void {
    this.db.onReady(() => {
      this.timer = setInterval(() => void this.store.purgeExpired().catch(() => undefined), 3600_000);
      this.timer.unref();
    });
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

/** Global: `@TenantRoute()` applies the interceptor on controllers of every feature module. */
@Global()
@Module({
  providers: [{ provide: IdempotencyStore, useClass: PgIdempotencyStore }, IdempotencyInterceptor, IdempotencyPurger],
  exports: [IdempotencyStore, IdempotencyInterceptor],
})
export class IdempotencyModule {}
