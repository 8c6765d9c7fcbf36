import { Injectable } from '@nestjs/common';
import {
  TEST_CLOCK_DAYS_PATH,
  TEST_CLOCK_RESET_PATH,
  TEST_CLOCK_SECRET_HEADER,
  TestClockDay,
} from '../../kernel/common/protocols/test-clock';
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
 * (absolute, so a retried day moves its time once). Advances and resets are serialized in this
 * process.
 *
 * A reset puts both clocks back at real time (offset 0) and runs no day: nothing is undone.
 * Rows dated ahead while the clock was ahead (billings sent for a future date, charges and
 * links expiring then, retries due then) keep their dates and come due when real time, or the
 * clock advanced again, reaches them. Stripe's test clocks never go back (one deletes them);
 * this one goes back so a long-lived development instance can live in today again.
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

  /** Back to real time (offset 0): the sandbox's clock, then the service's through the same channel. */
  reset(): Promise<ClockView> {
    const run = this.queue.then(async () => {
      await this.sync.set(0);
      await this.tellService(TEST_CLOCK_RESET_PATH, 'service.testClockReset', {}, 'reset to real time');
      return this.view();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private serviceDay(day: TestClockDay): Promise<void> {
    return this.tellService(TEST_CLOCK_DAYS_PATH, 'service.testClockDay', day, `${day.phase} of day`, 'advance');
  }

  private async tellService(path: string, operation: string, body: object, what: string, retry = 'reset'): Promise<void> {
    if (!this.config.clockDrivesService) return;
    this.service ??= new ResilientHttp(
      'sandboxTestClock',
      {
        baseUrl: this.config.serviceUrl,
        // a day of the billing engine can take a while with many recurrences
        timeoutMs: 120_000,
        retryDelaysMs: [500, 2000],
        dependency: 'service',
        headers: { [TEST_CLOCK_SECRET_HEADER]: this.config.testClockSecret },
      },
      this.breakers,
    );
    try {
      await this.service.call({
        operation,
        method: 'POST',
        path,
        body,
        idempotent: true,
      });
    } catch (e) {
      const why = e instanceof ProviderCallError ? `${e.code}${e.status ? ` (${e.status})` : ''}` : String((e as Error)?.message ?? e);
      throw SandboxErrors.error(
        'test_clock_service_failed',
        `The service at ${this.config.serviceUrl} did not run its ${what} (${why}); the sandbox's clock has moved, ${retry} again once it answers`,
      );
    }
  }
}
