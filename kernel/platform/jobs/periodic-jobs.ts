import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { DatabaseState } from '../database/database.state';
import { HealthRegistry } from '../health/health-registry';
import { MetricsService } from '../metrics/metrics.service';
import { inJobSpan } from '../tracing/tracing';
import { outsideUnitOfWork } from '../database/sql';

export interface PeriodicJobSpec {
  /** Stable name: in logs and in the `job` label of the metrics. */
  name: string;
  /** Timer period; 0 or less: no timer (the job runs only when kicked). */
  everyMs: number;
  /** One pass. A failure is logged and counted; the next tick runs as usual. */
  run: () => Promise<unknown>;
  /** Wait for the database to be reached and migrated before the first tick (default true). */
  needsDatabase?: boolean;
  /** Also run one pass as soon as the job starts, not only after the first period. */
  immediately?: boolean;
}

/** What a feature holds of its job. */
export interface PeriodicJob {
  /**
   * Run soon, without waiting (after a commit that made work due). While a pass is running, one
   * more pass follows it: work made due during a pass is never left for the next tick.
   */
  kick(): void;
  /** One pass now, or the pass already running; resolves when it ends (never rejects). */
  runNow(): Promise<void>;
  /** No more passes; resolves after the one in progress (for a feature that must release something after it). */
  stop(): Promise<void>;
}

/** Passes in a row that must fail before readiness reports the job (one failure is often a blip). */
export const FAILING_AFTER = 3;

class Job implements PeriodicJob {
  /** Passes that failed since the last success. */
  failuresInARow = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** When the pass in progress started (ms since the epoch), or null. */
  runningSince: number | null = null;
  private again = false;
  private stopped = false;

  constructor(
    readonly spec: PeriodicJobSpec,
    private readonly observe: (name: string, ok: boolean, err?: unknown) => void,
  ) {}

  start(): void {
    if (this.stopped || this.timer) return;
    if (this.spec.everyMs > 0) {
      this.timer = setInterval(() => void this.runNow(), this.spec.everyMs);
      this.timer.unref();
    }
    if (this.spec.immediately) void this.runNow();
  }

  kick(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else void this.runNow();
  }

  runNow(): Promise<void> {
    if (this.stopped) return this.running ?? Promise.resolve();
    // each pass is a span (tracing on), the root of its own trace
    this.runningSince ??= Date.now();
    // a pass kicked from inside a unit of work (a queue item's handler) is its own work, never a part of it
    this.running ??= outsideUnitOfWork(() => inJobSpan(this.spec.name, () => this.spec.run()))
      .then(
        () => {
          this.failuresInARow = 0;
          this.observe(this.spec.name, true);
        },
        (e) => {
          this.failuresInARow++;
          this.observe(this.spec.name, false, e);
        },
      )
      .finally(() => {
        this.running = null;
        this.runningSince = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

/**
 * Every background timer of the service, one way: it starts once the database is ready, never
 * overlaps itself in a process (a tick while a pass runs is skipped), logs and counts failures
 * (`jobs_runs_total{job,outcome}`, `jobs_last_success_seconds{job}`), reports a job whose last
 * FAILING_AFTER passes all failed in readiness (`backgroundJobs`: degraded, never down: requests
 * do not depend on it), and stops at shutdown after the pass in progress ends. Replicas share work through the job's own locks (advisory
 * locks, SKIP LOCKED claims); this class only keeps one process in order.
 */
@Injectable()
export class PeriodicJobs implements OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly jobs: Job[] = [];
  private readonly runs: Counter<'job' | 'outcome'>;
  private readonly lastSuccess: Gauge<'job'>;

  constructor(
    private readonly db: DatabaseState,
    metrics: MetricsService,
    health: HealthRegistry,
  ) {
    health.add({ name: 'backgroundJobs', dependency: 'process', check: async () => this.health() });
    this.runs = new Counter({
      name: 'jobs_runs_total',
      help: 'Passes of each background job, by outcome',
      labelNames: ['job', 'outcome'],
      registers: [metrics.registry],
    });
    this.lastSuccess = new Gauge({
      name: 'jobs_last_success_seconds',
      help: 'Unix time of the last successful pass of each background job',
      labelNames: ['job'],
      registers: [metrics.registry],
    });
  }

  schedule(spec: PeriodicJobSpec): PeriodicJob {
    const job = new Job(spec, (name, ok, err) => this.observe(name, ok, err));
    this.jobs.push(job);
    if (spec.needsDatabase === false) job.start();
    else this.db.onReady(() => job.start());
    return job;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.jobs.map((j) => j.stop()));
  }

  /** The names of the jobs this process runs (what is mounted is what polls). */
  scheduled(): string[] {
    return this.jobs.map((j) => j.spec.name);
  }

  /** The jobs with a pass in progress and how long each has run (what a slow shutdown waits for). */
  inProgress(): { job: string; forMs: number }[] {
    const now = Date.now();
    return this.jobs.filter((j) => j.runningSince !== null).map((j) => ({ job: j.spec.name, forMs: now - j.runningSince! }));
  }

  /** Degraded while any job has failed FAILING_AFTER passes in a row; names them. */
  health(): { status: 'up' | 'degraded'; failing: { job: string; failuresInARow: number }[] } {
    const failing = this.jobs
      .filter((j) => j.failuresInARow >= FAILING_AFTER)
      .map((j) => ({ job: j.spec.name, failuresInARow: j.failuresInARow }));
    return { status: failing.length ? 'degraded' : 'up', failing };
  }

  private observe(name: string, ok: boolean, err?: unknown): void {
    this.runs.inc({ job: name, outcome: ok ? 'ok' : 'failed' });
    if (ok) this.lastSuccess.set({ job: name }, Date.now() / 1000);
    else this.logger.warn({ job: name, err: (err as Error)?.message ?? String(err) }, `${name} pass failed`);
  }
}
