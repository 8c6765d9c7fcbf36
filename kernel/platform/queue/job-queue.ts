import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Gauge } from 'prom-client';
import * as sql from '../database/sql';
import type { Db, Tx } from '../database/sql';
import { HealthRegistry } from '../health/health-registry';
import { PeriodicJob, PeriodicJobs } from '../jobs/periodic-jobs';
import { MetricsService } from '../metrics/metrics.service';
import { backoffMs, JobPolicy } from './job-policy';
import { QueueConfig } from './queue.config';

export type { JobPolicy } from './job-policy';

/** A job as its handler and the operator see it. */
export interface QueuedJob {
  id: string;
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'done' | 'dead';
  /** Failed tries so far (the one running is not counted). */
  attempts: number;
  runAt: string;
  lastError: string | null;
  createdAt: string;
}

/**
 * Thrown by a handler whose job cannot run yet for a reason that is no failure (what it needs has
 * not arrived): its transaction rolls back and it is due again after `delayMs`, no attempt counted.
 */
export class JobNotYet extends Error {
  constructor(
    readonly delayMs: number,
    reason: string,
  ) {
    super(reason);
  }
}

/** Runs one job inside its transaction (`tx`, joined by every statement and transaction it makes); throwing rolls its effects back. */
export type JobHandler = (job: QueuedJob, tx: Tx) => Promise<void>;

interface Kind {
  policy: JobPolicy;
  handle: JobHandler;
}

type JobRow = {
  id: string;
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  status: QueuedJob['status'];
  attempts: number;
  run_at: string;
  last_error: string | null;
  created_at: string;
};
const COLUMNS = `id::text, kind, key, payload, status, attempts, run_at::text, last_error, created_at::text`;
const job = (r: JobRow): QueuedJob => ({
  id: r.id,
  kind: r.kind,
  key: r.key,
  payload: r.payload,
  status: r.status,
  attempts: r.attempts,
  runAt: r.run_at,
  lastError: r.last_error,
  createdAt: r.created_at,
});

/** How many jobs a pass runs at most (each in its own transaction), so one pass never holds the worker long. */
const PASS_LIMIT = 200;

/**
 * The one queue for work that must happen and may be retried (docs/decisions.md, "One job
 * queue"). A feature registers a kind with its policy and handler, and enqueues in the
 * transaction that makes the work due (so the work exists exactly when that change committed).
 * The worker claims one due job at a time with FOR UPDATE SKIP LOCKED (replicas share the queue,
 * none runs a job twice) and runs it in a unit of work: the handler's effects and the job's
 * `done` commit together, so a crash between them leaves the job to run again with nothing of it
 * written. A handler that throws rolls back; the failure counts an attempt, keeps the error, and
 * the job waits its backoff, or is dead past the kind's attempts. A dead job holds nothing back:
 * every other job keeps running. Pending and dead counts per kind are a metric and, when any is
 * dead, readiness says `degraded`; the operator lists dead jobs and replays them.
 */
@Injectable()
export class JobQueue {
  private readonly logger = new Logger('JobQueue');
  private readonly kinds = new Map<string, Kind>();
  private readonly worker: PeriodicJob;
  private readonly gauge: Gauge<'kind' | 'status'>;
  private counts: { kind: string; status: string; n: number }[] = [];

  constructor(
    private readonly ds: DataSource,
    config: QueueConfig,
    jobs: PeriodicJobs,
    metrics: MetricsService,
    health: HealthRegistry,
  ) {
    // with the worker off this replica only enqueues (and counts): another one runs the jobs
    this.worker = jobs.schedule({
      name: 'job-queue',
      everyMs: 1000,
      run: () => (config.workerEnabled ? this.runDue() : this.refreshCounts()),
    });
    this.gauge = new Gauge({
      name: 'job_queue_jobs',
      help: 'Jobs of the queue waiting (pending) or given up (dead), by kind',
      labelNames: ['kind', 'status'],
      registers: [metrics.registry],
    });
    health.add({
      name: 'jobQueue',
      dependency: 'process',
      check: async () => this.health(),
      // a kind's dead jobs degrade the class it depends on (an Adyen report: the acquirer)
      byDependency: (r) =>
        Object.fromEntries(
          Object.keys((r.dead as Record<string, number>) ?? {}).map((k) => [
            this.kinds.get(k)?.policy.dependency ?? 'process',
            'degraded' as const,
          ]),
        ),
    });
  }

  /** A kind of job and what runs it; once per kind, at start. */
  register(kind: string, policy: JobPolicy, handle: JobHandler): void {
    if (this.kinds.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    this.kinds.set(kind, { policy, handle });
  }

  /** The kinds this process runs (what is mounted is what the worker claims). */
  registered(): string[] {
    return [...this.kinds.keys()];
  }

  /**
   * Makes `kind`/`key` due (in `db`'s transaction when it is one: the job exists exactly when it
   * commits). A job of that kind and key already queued, done or dead is left as it is. Answers
   * whether a job was added; call {@link kick} after the commit to run it at once. `delayMs`: due
   * that long after now (work that a caller tries first itself, the job only the fallback).
   */
  async enqueue(db: Db, kind: string, key: string, payload: Record<string, unknown> = {}, delayMs = 0): Promise<boolean> {
    const { count } = await sql.exec(
      db,
      `INSERT INTO jobs (kind, key, payload, run_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))
       ON CONFLICT ON CONSTRAINT jobs_once DO NOTHING`,
      [kind, key, payload, delayMs],
    );
    return count === 1;
  }

  /**
   * Makes `kind`/`keys` due for work that is a trigger to read the latest state (a callback that
   * only says "this one changed"): a pending job of that key already covers it and is left as it
   * is; a done one is made pending again (attempts from zero), so a trigger after it ran runs it
   * again; a dead one stays dead for the operator. A job running meanwhile holds its row: the
   * statement waits for it and then sees it done. One statement for all keys.
   */
  async trigger(db: Db, kind: string, keys: string[]): Promise<void> {
    if (!keys.length) return;
    await sql.exec(
      db,
      `INSERT INTO jobs AS j (kind, key) SELECT $1, k FROM unnest($2::text[]) AS v(k)
       ON CONFLICT ON CONSTRAINT jobs_once DO UPDATE
         SET status = 'pending', attempts = 0, run_at = now(), last_error = NULL, finished_at = NULL, updated_at = now()
       WHERE j.status = 'done'`,
      [kind, [...new Set(keys)].sort()],
    );
  }

  /** Pending jobs of these kinds due now (a test's or an operator's "is it settled?"). */
  async dueNow(kinds: string[]): Promise<number> {
    const r = await sql.maybeOne<{ n: number }>(
      this.ds,
      `SELECT count(*)::int AS n FROM jobs WHERE status = 'pending' AND run_at <= now() AND kind = ANY($1)`,
      [kinds],
    );
    return r?.n ?? 0;
  }

  /** Run due jobs soon (after a commit that enqueued some). */
  kick(): void {
    this.worker.kick(); // with the worker off, a count
  }

  /** One pass: runs due jobs of the registered kinds, one transaction each; answers how many ran (done or failed). */
  async runDue(limit = PASS_LIMIT): Promise<number> {
    if (!this.kinds.size) return 0; // nothing registered: nothing to claim or count
    let ran = 0;
    while (ran < limit && (await this.runOne())) ran++;
    await this.refreshCounts();
    return ran;
  }

  /**
   * Runs these jobs of `kind` now, in the caller's turn, each in its own unit of work, when they
   * are pending and due and no worker holds them (a receiver that wants the report applied before
   * its answer, as the provider's flows expect). A failure is the job's attempt like any other:
   * counted, kept, retried by the worker on its backoff; nothing is thrown. Call after the commit
   * that enqueued them; answers how many ran.
   */
  async runNow(kind: string, keys: string[]): Promise<number> {
    if (!this.kinds.has(kind)) throw new Error(`job kind ${kind} is not registered`);
    let ran = 0;
    for (const key of keys) if (await this.runOne({ kind, key })) ran++;
    if (ran) await this.refreshCounts();
    return ran;
  }

  private async runOne(only?: { kind: string; key: string }): Promise<boolean> {
    const kinds = only ? [only.kind] : [...this.kinds.keys()];
    if (!kinds.length) return false;
    let claimed: QueuedJob | null = null;
    try {
      return await sql.unitOfWork(this.ds, async (tx) => {
        const r = await sql.maybeOne<JobRow>(
          tx,
          `SELECT ${COLUMNS} FROM jobs WHERE status = 'pending' AND run_at <= now() AND kind = ANY($1) AND ($2::text IS NULL OR key = $2)
            ORDER BY run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [kinds, only?.key ?? null],
        );
        if (!r) return false;
        claimed = job(r);
        await this.kinds.get(r.kind)!.handle(claimed, tx);
        await sql.exec(tx, `UPDATE jobs SET status = 'done', finished_at = now(), updated_at = now() WHERE id = $1`, [r.id]);
        return true;
      });
    } catch (e) {
      if (!claimed) throw e; // the claim itself failed (the database): the pass fails and is counted
      await this.failed(claimed, e);
      return true;
    }
  }

  /** After the job's transaction rolled back: one more attempt counted, then its backoff or death. */
  private async failed(j: QueuedJob, e: unknown): Promise<void> {
    if (e instanceof JobNotYet) {
      await sql.exec(
        this.ds,
        `UPDATE jobs SET last_error = $2, updated_at = now(), run_at = now() + make_interval(secs => $3::double precision / 1000)
          WHERE id = $1 AND status = 'pending'`,
        [j.id, e.message.slice(0, 500), e.delayMs],
      );
      return;
    }
    const { policy } = this.kinds.get(j.kind)!;
    const attempts = j.attempts + 1;
    const dead = attempts >= policy.maxAttempts;
    const error = String((e as Error)?.message ?? e).slice(0, 500);
    await sql.exec(
      this.ds,
      `UPDATE jobs SET attempts = $2, last_error = $3, updated_at = now(),
              status = CASE WHEN $4 THEN 'dead' ELSE status END,
              finished_at = CASE WHEN $4 THEN now() ELSE finished_at END,
              run_at = CASE WHEN $4 THEN run_at ELSE now() + make_interval(secs => $5::double precision / 1000) END
        WHERE id = $1 AND status = 'pending'`,
      [j.id, attempts, error, dead, backoffMs(policy, attempts)],
    );
    this.logger.warn(
      { jobId: j.id, kind: j.kind, key: j.key, attempts, dead, err: error },
      dead ? 'job dead' : 'job failed; retried later',
    );
  }

  /** Dead jobs, newest first (of one kind when given). */
  async dead(kind?: string, limit = 100): Promise<QueuedJob[]> {
    const rows = await sql.rows<JobRow>(
      this.ds,
      `SELECT ${COLUMNS} FROM jobs WHERE status = 'dead' AND ($1::text IS NULL OR kind = $1) ORDER BY id DESC LIMIT $2`,
      [kind ?? null, limit],
    );
    return rows.map(job);
  }

  /** A dead job made due again with its attempts from zero (once its cause is fixed); null when no dead job has that id. */
  async replay(id: string): Promise<QueuedJob | null> {
    const r = await sql.maybeOne<JobRow>(
      this.ds,
      `UPDATE jobs SET status = 'pending', attempts = 0, run_at = now(), finished_at = NULL, updated_at = now()
        WHERE id = $1 AND status = 'dead' RETURNING ${COLUMNS}`,
      [id],
    );
    if (r) this.kick();
    return r ? job(r) : null;
  }

  /** Pending and dead jobs per kind (the metric's and readiness's figures). */
  async refreshCounts(): Promise<void> {
    if (!this.kinds.size) return;
    const rows = await sql.rows<{ kind: string; status: string; n: string }>(
      this.ds,
      `SELECT kind, status, count(*) AS n FROM jobs WHERE status IN ('pending', 'dead') GROUP BY kind, status`,
    );
    this.counts = rows.map((r) => ({ kind: r.kind, status: r.status, n: Number(r.n) }));
    this.gauge.reset();
    for (const k of this.kinds.keys()) for (const status of ['pending', 'dead']) this.gauge.set({ kind: k, status }, 0);
    for (const c of this.counts) this.gauge.set({ kind: c.kind, status: c.status }, c.n);
  }

  private health() {
    const by = (status: string) => Object.fromEntries(this.counts.filter((c) => c.status === status).map((c) => [c.kind, c.n]));
    const dead = by('dead');
    return { status: Object.keys(dead).length ? ('degraded' as const) : ('up' as const), pending: by('pending'), dead };
  }
}
