import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AcquirerNotification, AcquirerNotificationData, signAcquirerEvent } from '../../common/protocols/acquirer-events';
import { SelfOrigin } from '../../platform/http/self-origin';
import { Clock } from '../../platform/clock/clock';
import { SandboxAcquirerConfig } from './sandbox-acquirer.config';
import { Tx } from '../../platform/database/sql';
import * as sql from '../../platform/database/sql';

const LEASE_SECONDS = 30;
const BACKOFF_SECONDS = [1, 2, 5, 10, 30, 60, 300];

/**
 * The acquirer's side of the notifications: written in the same transaction as the status
 * change, then POSTed (signed) to the service. Delivered at once when possible, otherwise by
 * the tick with backoff; a row is leased before sending so two replicas never send it together.
 */
@Injectable()
export class SandboxNotifier {
  private readonly logger = new Logger('SandboxAcquirerNotifier');

  constructor(
    private readonly ds: DataSource,
    private readonly config: SandboxAcquirerConfig,
    private readonly self: SelfOrigin,
    private readonly clock: Clock,
  ) {}

  /** Records a notification inside the caller's transaction; answers its id for `deliverNow`. */
  async enqueue(m: Tx, type: AcquirerNotification['type'], data: AcquirerNotificationData): Promise<string> {
    const event: AcquirerNotification = { eventId: randomUUID(), type, occurredAt: this.clock.now().toISOString(), data };
    await sql.rows(m, `INSERT INTO sandbox_acquirer_notifications (id, payload) VALUES ($1, $2)`, [event.eventId, JSON.stringify(event)]);
    return event.eventId;
  }

  /** Sends these notifications now (after their transaction committed); failures stay for the tick. */
  async deliverNow(ids: string[]): Promise<void> {
    if (!ids.length) return;
    const rows = await this.claim(`id = ANY($1::uuid[])`, [ids]);
    await Promise.all(rows.map((r) => this.send(r)));
  }

  /** Sends every notification that is due (tick). */
  async deliverDue(limit = 50): Promise<number> {
    const rows = await this.claim(`next_attempt_at <= now()`, [], limit);
    await Promise.all(rows.map((r) => this.send(r)));
    return rows.length;
  }

  private async claim(
    where: string,
    params: unknown[],
    limit = 100,
  ): Promise<{ id: string; payload: AcquirerNotification; attempts: number }[]> {
    const res = await sql.rows<{ id: string; payload: AcquirerNotification; attempts: number }>(
      this.ds,
      `UPDATE sandbox_acquirer_notifications SET attempts = attempts + 1, next_attempt_at = now() + interval '${LEASE_SECONDS} seconds'
       WHERE id IN (SELECT id FROM sandbox_acquirer_notifications WHERE delivered_at IS NULL AND ${where}
                    ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
       RETURNING id, payload, attempts`,
      params,
    );
    return res;
  }

  private url(): string {
    return this.config.notifyUrl ?? `${this.self.get()}/provider/acquirer-events`;
  }

  private async send(row: { id: string; payload: AcquirerNotification; attempts: number }): Promise<void> {
    const body = JSON.stringify(row.payload);
    let error: string | null = null;
    try {
      const res = await fetch(this.url(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-acquirer-signature': signAcquirerEvent(this.config.eventsSecret, Math.floor(Date.now() / 1000), body),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status >= 300) error = `answered ${res.status}`;
    } catch (e: any) {
      error = e?.message ?? String(e);
    }
    if (!error) {
      await sql.rows(this.ds, `UPDATE sandbox_acquirer_notifications SET delivered_at = now(), last_error = NULL WHERE id = $1`, [row.id]);
      return;
    }
    const wait = BACKOFF_SECONDS[Math.min(row.attempts - 1, BACKOFF_SECONDS.length - 1)];
    this.logger.warn({ eventId: row.id, attempts: row.attempts, error }, 'acquirer notification not delivered; will retry');
    await sql
      .rows(
        this.ds,
        `UPDATE sandbox_acquirer_notifications SET next_attempt_at = now() + make_interval(secs => $2), last_error = $3 WHERE id = $1`,
        [row.id, wait, error.slice(0, 500)],
      )
      .catch(() => undefined);
  }
}
