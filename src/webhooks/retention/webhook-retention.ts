import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { purgeInBatches } from '../../../kernel/platform/database/purge-in-batches';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { WebhooksConfig } from '../webhooks.config';
import * as sql from '../../../kernel/platform/database/sql';

/** Advisory lock of one purge batch: one replica deletes at a time, the others skip. */
const RETENTION_LOCK = 'webhook-retention';
const BATCH = 5000;
/** A run stops after this many batches (5 million events); the next run goes on. */
const MAX_BATCHES_PER_RUN = 1000;
const DAY_MS = 86_400_000;

/**
 * Deletes webhook events older than WEBHOOK_RETENTION_DAYS (default 30) whose deliveries have all
 * finished (DELIVERED, DEAD, CANCELLED, NO_ENDPOINT), with their deliveries and attempts (by
 * cascade). An event with a PENDING delivery, original or replay, is kept whatever its age. Age
 * is on the wall clock: advancing the sandbox test clock never purges anything early.
 *
 * Runs an hour after the database is ready and hourly after that, in batches of 5 000 events,
 * each its own short transaction under `pg_try_advisory_xact_lock`, rows taken with
 * `FOR UPDATE SKIP LOCKED` so a replay being created at that moment keeps its event.
 */
@Injectable()
export class WebhookRetention implements OnModuleInit {
  private readonly logger = new Logger('Webhooks');

  constructor(
    private readonly ds: DataSource,
    private readonly config: WebhooksConfig,
    private readonly jobs: PeriodicJobs,
  ) {}

  onModuleInit(): void {
    if (!this.config.retentionDays) return;
    this.jobs.schedule({ name: 'webhook-retention', everyMs: 3600_000, run: () => this.purgeAndLog() });
  }

  private async purgeAndLog(): Promise<void> {
    const n = await this.purge(new Date());
    if (n) this.logger.log(`retention: deleted ${n} webhook events older than ${this.config.retentionDays} days`);
  }

  /** Deletes what is past retention at `now` (0 when retention is off or another replica holds the lock). */
  async purge(now: Date): Promise<number> {
    if (!this.config.retentionDays) return 0;
    const cutoff = new Date(now.getTime() - this.config.retentionDays * DAY_MS);
    return purgeInBatches(
      this.ds,
      { lock: RETENTION_LOCK, batch: BATCH, maxBatches: MAX_BATCHES_PER_RUN },
      async (tx, limit) =>
        (
          await sql.exec(
            tx,
            `WITH doomed AS (
             SELECT e.id FROM webhook_events e
             WHERE e.created_at < $1
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'PENDING')
             ORDER BY e.created_at
             LIMIT $2
             FOR UPDATE OF e SKIP LOCKED)
           DELETE FROM webhook_events WHERE id IN (SELECT id FROM doomed)`,
            [cutoff, limit],
          )
        ).count,
    );
  }
}
