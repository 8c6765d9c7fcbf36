import { Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ADYEN_ACCEPTED,
  ADYEN_WEBHOOKS_PATH,
  AdyenNotificationItem,
  AdyenNotificationRequest,
  adyenHmacKey,
  signAdyenItem,
} from '../../../common/protocols/adyen';
import { SelfOrigin } from '../../../platform/http/self-origin';
import { PeriodicJob, PeriodicJobs } from '../../../platform/jobs/periodic-jobs';
import * as sql from '../../../platform/database/sql';
import { SandboxAdyenConfig } from './sandbox-adyen.config';

const LEASE_SECONDS = 30;
const BACKOFF_SECONDS = [1, 2, 5, 10, 30, 60, 300];

/** A stable uuid for an item key, so the same event enqueued twice (a replayed request) is kept once. */
function uuidOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The Adyen face's standard webhooks: each item is kept in an outbox, then POSTed as a
 * `NotificationRequest` with Basic auth and the item's HMAC (`additionalData.hmacSignature`).
 * Delivered only when the receiver answers 2xx with `[accepted]`; otherwise retried with
 * backoff, a row leased before sending so two replicas never send it together.
 */
@Injectable()
export class SandboxAdyenWebhooks {
  private readonly logger = new Logger('SandboxAdyenWebhooks');
  private readonly key: Buffer;
  private readonly job: PeriodicJob;

  constructor(
    private readonly ds: DataSource,
    private readonly config: SandboxAdyenConfig,
    private readonly self: SelfOrigin,
    jobs: PeriodicJobs,
  ) {
    this.key = adyenHmacKey(config.hmacKey);
    this.job = jobs.schedule({ name: 'sandbox-adyen-webhooks', everyMs: 1000, run: () => this.deliverDue() });
  }

  /** Keeps the item (once per key) and sends it soon. */
  async enqueue(key: string, item: AdyenNotificationItem): Promise<void> {
    await this.enqueueIn(this.ds, key, item);
    this.job.kick();
  }

  /** Keeps the item (once per key) inside the caller's transaction; `kick` after it commits. */
  async enqueueIn(db: sql.Db, key: string, item: AdyenNotificationItem): Promise<void> {
    const signed: AdyenNotificationItem = {
      ...item,
      additionalData: { ...item.additionalData, hmacSignature: signAdyenItem(this.key, item) },
    };
    await sql.exec(db, `INSERT INTO sandbox_adyen_webhooks (id, item) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, [
      uuidOf(key),
      JSON.stringify(signed),
    ]);
  }

  /** Sends what is due now (after a transaction that enqueued items committed). */
  kick(): void {
    this.job.kick();
  }

  async deliverDue(limit = 50): Promise<number> {
    const rows = await sql.rows<{ id: string; item: AdyenNotificationItem; attempts: number }>(
      this.ds,
      `UPDATE sandbox_adyen_webhooks SET attempts = attempts + 1, next_attempt_at = now() + interval '${LEASE_SECONDS} seconds'
       WHERE id IN (SELECT id FROM sandbox_adyen_webhooks WHERE delivered_at IS NULL AND next_attempt_at <= now()
                    ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, item, attempts`,
      [limit],
    );
    await Promise.all(rows.map((r) => this.send(r)));
    return rows.length;
  }

  private async send(row: { id: string; item: AdyenNotificationItem; attempts: number }): Promise<void> {
    const body: AdyenNotificationRequest = { live: 'false', notificationItems: [{ NotificationRequestItem: row.item }] };
    let error: string | null = null;
    try {
      const res = await fetch(this.config.webhookUrl ?? `${this.self.get()}${ADYEN_WEBHOOKS_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${this.config.webhookUsername}:${this.config.webhookPassword}`).toString('base64')}`,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text().catch(() => '');
      if (res.status >= 300 || !text.includes(ADYEN_ACCEPTED)) error = `answered ${res.status} without ${ADYEN_ACCEPTED}`;
    } catch (e: any) {
      error = e?.message ?? String(e);
    }
    if (!error) {
      await sql.exec(this.ds, `UPDATE sandbox_adyen_webhooks SET delivered_at = now(), last_error = NULL WHERE id = $1`, [row.id]);
      return;
    }
    const wait = BACKOFF_SECONDS[Math.min(row.attempts - 1, BACKOFF_SECONDS.length - 1)];
    this.logger.warn({ webhookId: row.id, attempts: row.attempts, error }, 'Adyen webhook not accepted; will retry');
    await sql
      .exec(
        this.ds,
        `UPDATE sandbox_adyen_webhooks SET next_attempt_at = now() + make_interval(secs => $2), last_error = $3 WHERE id = $1`,
        [row.id, wait, error.slice(0, 500)],
      )
      .catch(() => undefined);
  }
}
