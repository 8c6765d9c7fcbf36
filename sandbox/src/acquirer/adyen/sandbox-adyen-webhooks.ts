import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ADYEN_ACCEPTED,
  ADYEN_WEBHOOKS_PATH,
  AdyenNotificationItem,
  AdyenNotificationRequest,
  adyenHmacKey,
  signAdyenItem,
} from '../../../../kernel/common/protocols/adyen';
import { SandboxConfig } from '../../sandbox.config';
import { PeriodicJob, PeriodicJobs } from '../../../../kernel/platform/jobs/periodic-jobs';
import * as sql from '../../../../kernel/platform/database/sql';
import { Outcome, SandboxOutbox } from '../../outbox/sandbox-outbox';
import { SandboxAcquirerConfig } from '../sandbox-acquirer.config';
import { SandboxAdyenConfig } from './sandbox-adyen.config';

/** A stable uuid for an item key, so the same event enqueued twice (a replayed request) is kept once. */
function uuidOf(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The Adyen face's standard webhooks: each item is kept in the sandbox's outbox (SandboxOutbox:
 * leases, backoff, delivery log), then POSTed as a `NotificationRequest` with Basic auth and the
 * item's HMAC (`additionalData.hmacSignature`). Delivered only when the receiver answers 2xx with
 * `[accepted]`; otherwise retried. The receiver is SANDBOX_ADYEN_WEBHOOK_URL, or this service's
 * own route when its acquirer is Adyen; with neither, an item is kept and dropped unsent, as
 * Adyen sends nothing to an account with no webhook configured. The job runs only where the
 * sandbox does.
 */
@Injectable()
export class SandboxAdyenWebhooks implements OnApplicationBootstrap {
  private readonly key: Buffer;
  private readonly outbox: SandboxOutbox<{ item: AdyenNotificationItem }>;
  private job: PeriodicJob | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly config: SandboxAdyenConfig,
    private readonly acquirer: SandboxAcquirerConfig,
    private readonly sandbox: SandboxConfig,
    private readonly jobs: PeriodicJobs,
  ) {
    this.key = adyenHmacKey(config.hmacKey);
    this.outbox = new SandboxOutbox(ds, 'sandbox_adyen_webhooks', 'item', 'Adyen webhook');
  }

  onApplicationBootstrap(): void {
    if (this.acquirer.enabled)
      this.job = this.jobs.schedule({ name: 'sandbox-adyen-webhooks', everyMs: 1000, run: () => this.deliverDue() });
  }

  /** Keeps the item (once per key) and sends it soon. */
  async enqueue(key: string, item: AdyenNotificationItem): Promise<void> {
    await this.enqueueIn(this.ds, key, item);
    this.kick();
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
    this.job?.kick();
  }

  deliverDue(limit = 50): Promise<number> {
    return this.outbox.deliverDue(limit, (r) => this.send(r.item));
  }

  private async send(item: AdyenNotificationItem): Promise<Outcome> {
    const url = this.config.webhookUrl ?? (this.config.toService ? `${this.sandbox.serviceUrl}${ADYEN_WEBHOOKS_PATH}` : null);
    if (!url) return { drop: 'no webhook endpoint configured (SANDBOX_ADYEN_WEBHOOK_URL, or ACQUIRER_PROVIDER=adyen): not sent' };
    const body: AdyenNotificationRequest = { live: 'false', notificationItems: [{ NotificationRequestItem: item }] };
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`${this.config.webhookUsername}:${this.config.webhookPassword}`).toString('base64')}`,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text().catch(() => '');
      return res.status >= 300 || !text.includes(ADYEN_ACCEPTED) ? { retry: `answered ${res.status} without ${ADYEN_ACCEPTED}` } : null;
    } catch (e: any) {
      return { retry: e?.message ?? String(e) };
    }
  }
}
