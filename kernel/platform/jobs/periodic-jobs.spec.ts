import { Logger } from '@nestjs/common';
import { DatabaseState } from '../database/database.state';
import { HealthRegistry } from '../health/health-registry';
import { MetricsService } from '../metrics/metrics.service';
import { FAILING_AFTER, PeriodicJobs } from './periodic-jobs';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits (up to 5 s, for a loaded CI machine) until `ok()` holds. */
async function until(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 5000; !ok() && Date.now() < end;) await tick(5);
  expect(ok()).toBe(true);
}

/** A pass that stays open until released, counting how many ran and how many overlapped. */
function gate() {
  let open = 0;
  let maxOpen = 0;
  let started = 0;
  const waiting: (() => void)[] = [];
  return {
    run: () =>
      new Promise<void>((resolve) => {
        started++;
        maxOpen = Math.max(maxOpen, ++open);
        waiting.push(() => {
          open--;
          resolve();
        });
      }),
    release: () => waiting.splice(0).forEach((w) => w()),
    get started() {
      return started;
    },
    get maxOpen() {
      return maxOpen;
    },
  };
}

describe('PeriodicJobs', () => {
  let db: DatabaseState;
  let metrics: MetricsService;
  let jobs: PeriodicJobs;
  let health: HealthRegistry;
  let warn: jest.SpyInstance;

  beforeEach(() => {
    db = new DatabaseState();
    metrics = new MetricsService();
    health = new HealthRegistry();
    jobs = new PeriodicJobs(db, metrics, health);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    await jobs.onModuleDestroy();
    warn.mockRestore();
  });

  const metric = async (name: string) =>
    (await metrics.registry.getSingleMetricAsString(name)).split('\n').filter((l) => !l.startsWith('#'));

  it('starts ticking only once the database is ready', async () => {
    let runs = 0;
    jobs.schedule({ name: 'probe', everyMs: 10, run: async () => void runs++ });
    await tick(60);
    expect(runs).toBe(0);
    db.markReady();
    await until(() => runs > 1);
  });

  it('runs at once with immediately, and never waits for the database when told so', async () => {
    let runs = 0;
    jobs.schedule({ name: 'probe', everyMs: 60_000, immediately: true, needsDatabase: false, run: async () => void runs++ });
    await until(() => runs === 1);
  });

  it('never overlaps a pass with itself: ticks during a long pass are skipped', async () => {
    const g = gate();
    db.markReady();
    jobs.schedule({ name: 'slow', everyMs: 5, run: g.run });
    await tick(60);
    expect(g.started).toBe(1);
    g.release();
    await until(() => g.started > 1);
    expect(g.maxOpen).toBe(1);
    const stopping = jobs.onModuleDestroy();
    g.release();
    await stopping;
  });

  it('kick during a pass runs exactly one more pass after it (work made due meanwhile is not left behind)', async () => {
    const g = gate();
    const job = jobs.schedule({ name: 'kicked', everyMs: 0, run: g.run });
    job.kick();
    job.kick();
    job.kick();
    await tick(5);
    expect(g.started).toBe(1);
    g.release();
    await tick(5);
    expect(g.started).toBe(2);
    g.release();
    await tick(5);
    expect(g.started).toBe(2);
    expect(g.maxOpen).toBe(1);
  });

  it('logs and counts a failed pass, and the next tick runs as usual', async () => {
    let n = 0;
    db.markReady();
    jobs.schedule({
      name: 'flaky',
      everyMs: 10,
      run: async () => {
        if (++n === 1) throw new Error('database went away');
      },
    });
    await until(() => n > 2);
    expect(warn).toHaveBeenCalledWith({ job: 'flaky', err: 'database went away' }, 'flaky pass failed');
    const runs = await metric('jobs_runs_total');
    expect(runs).toContain('jobs_runs_total{job="flaky",outcome="failed"} 1');
    expect(runs.find((l) => l.startsWith('jobs_runs_total{job="flaky",outcome="ok"}'))).toBeDefined();
    const [last] = await metric('jobs_last_success_seconds');
    expect(Number(last.split(' ')[1])).toBeGreaterThan(Date.now() / 1000 - 5);
  });

  it('readiness: degraded (never down) while a job has failed its last three passes, up again after a success', async () => {
    let fail = true;
    const run = async () => {
      if (fail) throw new Error('boom');
    };
    const job = jobs.schedule({ name: 'sweeper', everyMs: 0, run });
    jobs.schedule({ name: 'healthy', everyMs: 0, run: async () => undefined });
    const [check] = health.all();
    expect(check.name).toBe('backgroundJobs');
    for (let i = 1; i < FAILING_AFTER; i++) await job.runNow();
    expect(await check.check()).toEqual({ status: 'up', failing: [] });
    await job.runNow();
    expect(await check.check()).toEqual({ status: 'degraded', failing: [{ job: 'sweeper', failuresInARow: FAILING_AFTER }] });
    fail = false;
    await job.runNow();
    expect(await check.check()).toEqual({ status: 'up', failing: [] });
  });

  it('stops at shutdown after the pass in progress ends, and runs no more', async () => {
    const g = gate();
    db.markReady();
    const job = jobs.schedule({ name: 'stopping', everyMs: 5, run: g.run });
    await tick(20);
    let stopped = false;
    const stopping = jobs.onModuleDestroy().then(() => (stopped = true));
    await tick(20);
    expect(stopped).toBe(false);
    g.release();
    await stopping;
    job.kick();
    await job.runNow();
    await tick(30);
    expect(g.started).toBe(1);
  });
});
