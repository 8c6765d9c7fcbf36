import { DynamicModule, Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { Clock, DayPassedSignal, SystemClock } from './clock/clock';
import { ClockSync } from './clock/clock-sync.service';
import { AdminKey } from './config/admin-key';
import { PlatformConfig } from './config/platform.config';
import { DatabaseModule } from './database/database.module';
import { DatabaseLayout } from './database/data-source.factory';
import { HealthController } from './health/health.controller';
import { HealthRegistry } from './health/health-registry';
import { PeriodicJobs } from './jobs/periodic-jobs';
import { ShutdownState } from './lifecycle/shutdown.state';
import { AppLogger, createRootLog, RootLog } from './logging/app-logger';
import { MetricsController } from './metrics/metrics.controller';
import { MetricsService } from './metrics/metrics.service';
import { BreakerRegistry } from './resilience/breaker-registry';
import { Tracing } from './tracing/tracing.service';
import { OpsServer } from './http/ops-port';

export interface PlatformOptions {
  /** Tests capture log lines here to prove nothing secret is logged. */
  logDestination?: NodeJS.WritableStream;
  /** Which migrations and schema are the app's (the service's when unset). */
  database?: DatabaseLayout;
}

/** The kernel every feature builds on. */
@Global()
@Module({})
export class PlatformModule {
  /** `appName`: the `service` of every log line the app writes (its composition root names it). */
  static forRoot(appName: string, opts: PlatformOptions = {}): DynamicModule {
    return {
      module: PlatformModule,
      imports: [TerminusModule.forRoot({ errorLogStyle: 'json', logger: false }), DatabaseModule.forRoot(opts.database)],
      controllers: [HealthController, MetricsController],
      providers: [
        {
          provide: RootLog,
          inject: [PlatformConfig],
          useFactory: (c: PlatformConfig) => createRootLog(c.logLevel, appName, opts.logDestination),
        },
        AppLogger,
        AdminKey,
        { provide: Clock, useClass: SystemClock },
        DayPassedSignal,
        ClockSync,
        ShutdownState,
        HealthRegistry,
        MetricsService,
        BreakerRegistry,
        PeriodicJobs,
        Tracing,
        OpsServer,
      ],
      exports: [
        AppLogger,
        AdminKey,
        Clock,
        DayPassedSignal,
        ClockSync,
        ShutdownState,
        HealthRegistry,
        MetricsService,
        BreakerRegistry,
        PeriodicJobs,
        Tracing,
        DatabaseModule,
      ],
    };
  }
}
