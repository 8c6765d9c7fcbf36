import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock, DayPassedSignal } from '../../../kernel/platform/clock/clock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { PixAutomaticConfig } from '../pix-automatic.config';
import { BillingEngine } from './billing-engine';

/**
 * When the billing engine runs: every BILLING_ENGINE_INTERVAL_MS once the database is ready
 * (giving up a run another replica holds), and for each day the sandbox test clock passes
 * (waiting for the lock, so the clock answers after the day's work is done).
 */
@Injectable()
export class EngineScheduler implements OnModuleInit {
  constructor(
    private readonly engine: BillingEngine,
    private readonly config: PixAutomaticConfig,
    private readonly clock: Clock,
    private readonly dayPassed: DayPassedSignal,
    private readonly jobs: PeriodicJobs,
  ) {}

  onModuleInit(): void {
    this.dayPassed.subscribe('pix-automatic.billing-engine', async (day) => void (await this.engine.runDay(day, { wait: true })), 10);
    this.jobs.schedule({
      name: 'billing-engine',
      everyMs: this.config.engineIntervalMs,
      run: () => this.engine.runDay(this.clock.today(), { wait: false }),
    });
  }
}
