import { Injectable } from '@nestjs/common';
import { TEST_CLOCK_DAYS_PATH, TEST_CLOCK_SECRET_HEADER, TestClockDay } from '../../kernel/common/protocols/test-clock';
import { Clock, DayPassedSignal } from '../../kernel/platform/clock/clock';
import { ClockSync } from '../../kernel/platform/clock/clock-sync.service';
import { ProviderCallError, ResilientHttp } from '../../kernel/platform/http/resilient-http';
import { BreakerRegistry } from '../../kernel/platform/resilience/breaker-registry';
import { SandboxConfig } from './sandbox.config';
import { SandboxErrors } from './sandbox.errors';

const DAY_MS = 86_400_000;
export const MAX_ADVANCE_DAYS = 400;

export interface ClockView {
  now: string;
  today: string;
}

/**
 * The test clock (like Stripe's): moves time forward one day at a time and, for each day, runs
 * what the timers would have run before answering. The sandbox and the service are two
 * processes with two databases, so a day is three steps: the service's start of day (its billing
 * engine sends the day's billings, `POST /test-clock/days` with `start`), the sandbox's own day
 * (the bank settles, the PSP and the acquirer move), then the service's end of day (it checks
 * what was settled, expires links). The sandbox's offset is the truth; the service is told it
 * (absolute, so a retried day moves its time once). Advances are serialized in this process.
 */
@Injectable()
export class SandboxClock {
  private queue: Promise<unknown> = Promise.resolve();
  private service: ResilientHttp | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly sync: ClockSync,
    private readonly dayPassed: DayPassedSignal,
    private readonly config: SandboxConfig,
    private readonly breakers: BreakerRegistry,
  ) {}

  view(): ClockView {
    return { now: this.clock.now().toISOString(), today: this.clock.today() };
  }

  advance(days: number): Promise<ClockView & { daysAdvanced: number }> {
    const run = this.queue.then(async () => {
      for (let i = 0; i < days; i++) {
        const offsetMs = await this.sync.advance(DAY_MS);
        await this.serviceDay({ offsetMs, phase: 'start' });
        await this.dayPassed.raise(this.clock.today());
        await this.serviceDay({ offsetMs, phase: 'end' });
      }
      return { ...this.view(), daysAdvanced: days };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async serviceDay(day: TestClockDay): Promise<void> {
    if (!this.config.clockDrivesService) return;
    this.service ??= new ResilientHttp(
      'sandboxTestClock',
      {
        baseUrl: this.config.serviceUrl,
        // a day of the billing engine can take a while with many recurrences
        timeoutMs: 120_000,
        retryDelaysMs: [500, 2000],
        headers: { [TEST_CLOCK_SECRET_HEADER]: this.config.testClockSecret },
      },
      this.breakers,
    );
    try {
      await this.service.call({
        operation: 'service.testClockDay',
        method: 'POST',
        path: TEST_CLOCK_DAYS_PATH,
        body: day,
        idempotent: true,
      });
    } catch (e) {
      const why = e instanceof ProviderCallError ? `${e.code}${e.status ? ` (${e.status})` : ''}` : String((e as Error)?.message ?? e);
      throw SandboxErrors.error(
        'test_clock_service_failed',
        `The service at ${this.config.serviceUrl} did not run its ${day.phase} of day (${why}); the sandbox's clock has moved, advance again once it answers`,
      );
    }
  }
}
