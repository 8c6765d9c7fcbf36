import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AcquirerNotification, AcquirerNotificationData, signAcquirerEvent } from '../../../kernel/common/protocols/acquirer-events';
import { SandboxConfig } from '../sandbox.config';
import { Clock } from '../../../kernel/platform/clock/clock';
import { SandboxAcquirerConfig } from './sandbox-acquirer.config';
import { Tx } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';
import { Outcome, SandboxOutbox } from '../outbox/sandbox-outbox';

/**
 * The acquirer's side of the notifications: written in the same transaction as the status
 * change, then POSTed (signed) to the service, at once when possible, otherwise by the tick;
 * leases, backoff and the delivery log are the sandbox's one outbox (SandboxOutbox).
 */
@Injectable()
export class SandboxNotifier {
  private readonly outbox: SandboxOutbox<{ payload: AcquirerNotification }>;

  constructor(
    ds: DataSource,
    private readonly config: SandboxAcquirerConfig,
    private readonly sandbox: SandboxConfig,
    private readonly clock: Clock,
  ) {
    this.outbox = new SandboxOutbox(ds, 'sandbox_acquirer_notifications', 'payload', 'acquirer notification');
  }

  /** Records a notification inside the caller's transaction; answers its id for `deliverNow`. */
  async enqueue(m: Tx, type: AcquirerNotification['type'], data: AcquirerNotificationData): Promise<string> {
    const event: AcquirerNotification = { eventId: randomUUID(), type, occurredAt: this.clock.now().toISOString(), data };
    await sql.rows(m, `INSERT INTO sandbox_acquirer_notifications (id, payload) VALUES ($1, $2)`, [event.eventId, JSON.stringify(event)]);
    return event.eventId;
  }

  /** Sends these notifications now (after their transaction committed); failures stay for the tick. */
  async deliverNow(ids: string[]): Promise<void> {
    await this.outbox.deliverNow(ids, (r) => this.send(r.payload));
  }

  /** Sends every notification that is due (tick). */
  deliverDue(limit = 50): Promise<number> {
    return this.outbox.deliverDue(limit, (r) => this.send(r.payload));
  }

  private url(): string {
    return this.config.notifyUrl ?? `${this.sandbox.serviceUrl}/provider/acquirer-events`;
  }

  private async send(payload: AcquirerNotification): Promise<Outcome> {
    const body = JSON.stringify(payload);
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
      return res.status >= 300 ? { retry: `answered ${res.status}` } : null;
    } catch (e: any) {
      return { retry: e?.message ?? String(e) };
    }
  }
}
