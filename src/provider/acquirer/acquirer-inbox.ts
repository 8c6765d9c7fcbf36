import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AcquirerNotification } from '../../../kernel/common/protocols/acquirer-events';
import * as sql from '../../../kernel/platform/database/sql';
import type { Tx } from '../../../kernel/platform/database/sql';
import { JobQueue } from '../../../kernel/platform/queue/job-queue';
import { AcquirerConfig } from './acquirer.config';
import { acquirerEventRejection } from './acquirer-event-checks';
import { AcquirerEvents } from './acquirer-events';

/** The job kind that applies one kept notification of the generic acquirer (its key: the notification's eventId). */
export const ACQUIRER_NOTIFICATION_JOB = 'acquirer.notification';

/**
 * What became of a notification: `applied` (its subscribers ran, in its job), `pending` (kept,
 * its application failed and the queue retries it), `rejected` (kept with the reason, never
 * applied), `duplicate` (that eventId was kept before: nothing added).
 */
export type AcquirerReceipt =
  { status: 'applied'; handledBy: string[] } | { status: 'pending' } | { status: 'rejected'; reason: string } | { status: 'duplicate' };

/**
 * The generic acquirer's notifications, kept once and applied once each. The receiver keeps each
 * (unique by its eventId, so a redelivery adds nothing) and, in the same transaction, enqueues its
 * application on the job queue; one whose fields fail the edge's checks is kept as rejected with
 * its reason. After the commit the receiver runs the job at once (the sandbox's flows see the
 * effect when their call returns, as when the request applied it); the job runs the
 * subscribers of AcquirerEvents in its own transaction and marks the notification applied in it.
 * A subscriber that throws rolls that notification back only: the answer is still 2xx (it is
 * kept), and the queue retries it on its backoff until it is dead.
 */
@Injectable()
export class AcquirerInbox {
  private readonly logger = new Logger('AcquirerInbox');

  constructor(
    private readonly ds: DataSource,
    private readonly events: AcquirerEvents,
    private readonly queue: JobQueue,
    config: AcquirerConfig,
  ) {
    queue.register(ACQUIRER_NOTIFICATION_JOB, { ...config.inbox, dependency: 'acquirer' }, (job, tx) => this.apply(tx, job.key));
  }

  /** Keeps a verified notification, enqueues its application and runs it now; answers what became of it. */
  async accept(event: AcquirerNotification): Promise<AcquirerReceipt> {
    const rejected = acquirerEventRejection(event);
    if (rejected)
      this.logger.warn({ eventId: event.eventId, type: event.type, reason: rejected }, 'acquirer notification kept as rejected');
    const fresh = await sql.transaction(this.ds, async (tx) => {
      const { count } = await sql.exec(
        tx,
        `INSERT INTO acquirer_notifications (event_id, type, payload, rejected_reason) VALUES ($1, $2, $3, $4)
         ON CONFLICT (event_id) DO NOTHING`,
        [event.eventId, String(event.type).slice(0, 64), event, rejected],
      );
      if (count === 1 && !rejected) await this.queue.enqueue(tx, ACQUIRER_NOTIFICATION_JOB, event.eventId);
      return count === 1;
    });
    if (!fresh) return { status: 'duplicate' };
    if (rejected) return { status: 'rejected', reason: rejected };
    await this.queue.runNow(ACQUIRER_NOTIFICATION_JOB, [event.eventId]);
    const r = await sql.maybeOne<{ handled_by: string[] | null; applied: boolean }>(
      this.ds,
      `SELECT handled_by, applied_at IS NOT NULL AS applied FROM acquirer_notifications WHERE event_id = $1`,
      [event.eventId],
    );
    return r?.applied ? { status: 'applied', handledBy: r.handled_by ?? [] } : { status: 'pending' };
  }

  /** The job: a kept notification not applied yet, handed to the subscribers and marked applied, all in `tx`. */
  private async apply(tx: Tx, eventId: string): Promise<void> {
    const r = await sql.maybeOne<{ payload: AcquirerNotification }>(
      tx,
      `SELECT payload FROM acquirer_notifications WHERE event_id = $1 AND applied_at IS NULL AND rejected_reason IS NULL FOR UPDATE`,
      [eventId],
    );
    if (!r) return; // applied already, or kept as rejected
    const { handledBy } = await this.events.dispatch(r.payload);
    await sql.exec(tx, `UPDATE acquirer_notifications SET applied_at = now(), handled_by = $2 WHERE event_id = $1`, [eventId, handledBy]);
  }
}
