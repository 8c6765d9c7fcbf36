import { Injectable } from '@nestjs/common';

import { Clock } from '../../../kernel/platform/clock/clock';
import { EventPublisher } from '../../webhooks/event-publisher';
import { ReceiverEventType } from '../domain/provider-events';
import { Billing, Recurrence } from '../pix.model';
import { exec, fromCents } from '../sql';
import { Tx } from '../../../kernel/platform/database/sql';

export interface PixEvent {
  tenantId: string;
  /** A PIX_AUTOMATIC_RECEIVER_* type (or PIX_AUTOMATIC_RECEIVER_BILLING_SKIPPED, ours). */
  type: ReceiverEventType | 'PIX_AUTOMATIC_RECEIVER_BILLING_SKIPPED';
  idTx: string;
  data: Record<string, unknown>;
}

export function recurrenceEvent(r: Recurrence, type: PixEvent['type']): PixEvent {
  return { tenantId: r.tenantId, type, idTx: r.idTx, data: { recurrenceId: r.id, status: r.status } };
}

export function billingEvent(b: Billing, type: PixEvent['type']): PixEvent {
  return {
    tenantId: b.tenantId,
    type,
    idTx: b.idTx,
    data: {
      billingId: b.id,
      recurrenceId: b.recurrenceId,
      status: b.status,
      amount: fromCents(b.amountCents),
      currency: b.currency,
      dueDate: b.dueDate,
    },
  };
}

/**
 * Writes recurring-debit events to the outbox through `EventPublisher`, in the caller's
 * transaction, and at most once per (idTx, event type): the RECEIVER_* and PAYER_* variants of a
 * provider event, its duplicates, and the provider's echo of a change we made ourselves all
 * collapse into one event for the caller.
 */
@Injectable()
export class OutboundEvents {
  constructor(
    private readonly clock: Clock,
    private readonly publisher: EventPublisher,
  ) {}

  async publishOnce(m: Tx, e: PixEvent): Promise<boolean> {
    return (await this.publishManyOnce(m, [e])) === 1;
  }

  /** Events already made unique by the caller's own constraint (skipped cycles): no dedupe row. */
  async publishAll(m: Tx, events: PixEvent[]): Promise<void> {
    const occurredAt = this.clock.now();
    await this.publisher.publishMany(
      m,
      events.map((e) => ({ tenantId: e.tenantId, domain: 'pix-automatic' as const, type: e.type, idTx: e.idTx, data: e.data, occurredAt })),
    );
  }

  /** Returns how many were new. */
  async publishManyOnce(m: Tx, events: PixEvent[]): Promise<number> {
    if (!events.length) return 0;
    const { rows } = await exec<{ id_tx: string; event_type: string }>(
      m,
      `INSERT INTO pix_published_events (id_tx, event_type) SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT DO NOTHING RETURNING id_tx, event_type`,
      [events.map((e) => e.idTx), events.map((e) => e.type)],
    );
    if (!rows.length) return 0;
    const fresh = new Set(rows.map((r) => `${r.id_tx} ${r.event_type}`));
    const occurredAt = this.clock.now();
    const toPublish = events.filter((e) => fresh.delete(`${e.idTx} ${e.type}`));
    await this.publisher.publishMany(
      m,
      toPublish.map((e) => ({
        tenantId: e.tenantId,
        domain: 'pix-automatic' as const,
        type: e.type,
        idTx: e.idTx,
        data: e.data,
        occurredAt,
      })),
    );
    return rows.length;
  }
}
