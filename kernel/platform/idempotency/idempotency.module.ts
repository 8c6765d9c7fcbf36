import { Global, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { PeriodicJobs } from '../jobs/periodic-jobs';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore, SqlIdempotencyStore } from './idempotency.store';

/** Deletes expired records hourly (one replica per run). */
@Injectable()
class IdempotencyPurger implements OnModuleInit {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly jobs: PeriodicJobs,
  ) {}

  onModuleInit(): void {
    this.jobs.schedule({ name: 'idempotency-purge', everyMs: 3600_000, run: () => this.store.purgeExpired() });
  }
}

/** Global: `@TenantRoute()` applies the interceptor on controllers of every feature module. */
@Global()
@Module({
  providers: [{ provide: IdempotencyStore, useClass: SqlIdempotencyStore }, IdempotencyInterceptor, IdempotencyPurger],
  exports: [IdempotencyStore, IdempotencyInterceptor],
})
export class IdempotencyModule {}
