import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Clock, DayPassedSignal } from '../../platform/clock/clock';
import { DatabaseState } from '../../platform/database/database.state';
import { PixAutomaticConfig } from '../pix-automatic.config';
import { BillingEngine } from './billing-engine';

/**
 * When the billing engine runs: every BILLING_ENGINE_INTERVAL_MS once the database is ready
 * (giving up a run another replica holds), and for each day the sandbox test clock passes
 * (waiting for the lock, so the clock answers after the day's work is done).
 */
@Injectable()
export class EngineScheduler implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('BillingEngine');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;

  constructor(
    private readonly engine: BillingEngine,
    private readonly config: PixAutomaticConfig,
    private readonly clock: Clock,
    private readonly dayPassed: DayPassedSignal,
    private readonly db: DatabaseState,
  ) {}

  onModuleInit(): void {
    this.dayPassed.subscribe('pix-automatic.billing-engine', async (day) => void (await this.engine.runDay(day, { wait: true })), 10);
    if (this.config.engineIntervalMs > 0) {
      this.db.onReady(() => {
        if (this.stopped) return;
        this.timer = setInterval(() => void this.tick(), this.config.engineIntervalMs);
        this.timer.unref();
      });
    }
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    const run = this.engine
      .runDay(this.clock.today(), { wait: false })
      .catch((e) => this.logger.error(`billing engine run failed: ${e?.message}`))
      .finally(() => (this.running = null));
    this.running = run;
    await run;
  }
}
