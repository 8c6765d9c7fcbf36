import { Injectable } from '@nestjs/common';
import { Clock, DayPassedSignal } from '../platform/clock/clock';
import { ClockSync } from '../platform/clock/clock-sync.service';

const DAY_MS = 86_400_000;
export const MAX_ADVANCE_DAYS = 400;

export interface ClockView {
  now: string;
  today: string;
}

/**
 * The test clock (like Stripe's): moves the service's time forward one day at a time and, for
 * each day, runs what the timers would have run (billing engine, bank settlements, link expiry…)
 * through DayPassedSignal before answering. Advances are serialized in this process.
 */
@Injectable()
export class SandboxClock {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly clock: Clock,
    private readonly sync: ClockSync,
    private readonly dayPassed: DayPassedSignal,
  ) {}

  view(): ClockView {
    return { now: this.clock.now().toISOString(), today: this.clock.today() };
  }

  advance(days: number): Promise<ClockView & { daysAdvanced: number }> {
    const run = this.queue.then(async () => {
      for (let i = 0; i < days; i++) {
        await this.sync.advance(DAY_MS);
        await this.dayPassed.raise(this.clock.today());
      }
      return { ...this.view(), daysAdvanced: days };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
