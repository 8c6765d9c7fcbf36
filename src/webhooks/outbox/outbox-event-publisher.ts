import { Injectable } from '@nestjs/common';

import { randomHex } from '../../../kernel/common/random-ids';
import { Clock } from '../../../kernel/platform/clock/clock';
import { EVENT_DOMAINS, isKnownEventType } from '../event-types';
import { EventPublisher, OutboundEvent } from '../event-publisher';
import { WebhookErrors } from '../webhooks.errors';
import { Tx } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The outbox binding of {@link EventPublisher}: ONE statement in the caller's transaction
 * writes the event rows and their delivery rows. With an active endpoint whose `events` filter
 * takes the type, the delivery is PENDING and due at once; with no active endpoint it is
 * recorded as NO_ENDPOINT (visible in the delivery log, replayable once an endpoint is
 * registered); an endpoint whose filter excludes the type gets no delivery (the caller opted out).
 */
@Injectable()
export class OutboxEventPublisher extends EventPublisher {
  constructor(private readonly clock: Clock) {
    super();
  }

  async publish(manager: Tx, event: OutboundEvent): Promise<void> {
    await this.publishMany(manager, [event]);
  }

  /**
   * Every event checked first (one bad event writes nothing), then ONE statement: the event rows
   * from arrays, and a delivery row per event joined to its tenant's active endpoint of the domain.
   */
  async publishMany(manager: Tx, events: OutboundEvent[]): Promise<void> {
    if (!events.length) return;
    for (const e of events) assertEvent(e);
    const now = this.clock.now();
    for (let i = 0; i < events.length; i += MAX_PER_STATEMENT) {
      const chunk = events.slice(i, i + MAX_PER_STATEMENT);
      await sql.rows(
        manager,
        `WITH ev AS (
           INSERT INTO webhook_events (id, tenant_id, domain, type, id_tx, data, occurred_at, created_at)
           SELECT i, t, d, y, x, j, o, $8 FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::timestamptz[])
             WITH ORDINALITY AS v(i, t, d, y, x, j, o, n)
           ORDER BY n
           RETURNING id, tenant_id, domain, type
         )
         INSERT INTO webhook_deliveries (tenant_id, event_id, endpoint_id, domain, event_type, status, next_attempt_at, created_at)
         SELECT ev.tenant_id, ev.id, e.id, ev.domain, ev.type,
                CASE WHEN e.id IS NULL THEN 'NO_ENDPOINT' ELSE 'PENDING' END,
                CASE WHEN e.id IS NULL THEN NULL ELSE $8::timestamptz END,
                $8
         FROM ev
         LEFT JOIN webhook_endpoints e ON e.tenant_id = ev.tenant_id AND e.domain = ev.domain AND e.status = 'ACTIVE'
         WHERE e.id IS NULL OR e.events IS NULL OR ev.type = ANY (e.events)`,
        [
          chunk.map(() => `evt_${randomHex(12)}`),
          chunk.map((e) => e.tenantId),
          chunk.map((e) => e.domain),
          chunk.map((e) => e.type),
          chunk.map((e) => e.idTx ?? null),
          chunk.map((e) => JSON.stringify(e.data)),
          chunk.map((e) => e.occurredAt ?? now),
          now,
        ],
      );
    }
  }
}

/** Bounds the size of one statement's arrays. */
const MAX_PER_STATEMENT = 5000;

function assertEvent(e: OutboundEvent): void {
  const problems: string[] = [];
  if (!e || typeof e !== 'object') throw WebhookErrors.error('invalid_outbound_event', 'the event is not an object');
  if (typeof e.tenantId !== 'string' || !UUID.test(e.tenantId)) problems.push('tenantId must be a tenant uuid');
  if (!EVENT_DOMAINS.includes(e.domain)) problems.push(`domain must be one of ${EVENT_DOMAINS.join(', ')}`);
  else if (typeof e.type !== 'string' || !isKnownEventType(e.domain, e.type))
    problems.push(`type "${String(e.type)}" is not an event type of ${e.domain}`);
  if (e.idTx !== undefined && (typeof e.idTx !== 'string' || e.idTx.length === 0 || e.idTx.length > 100))
    problems.push('idTx must be a string of 1 to 100 characters');
  if (e.domain === 'pix-automatic' && !e.idTx) problems.push('recurring-debit events carry idTx');
  if (!e.data || typeof e.data !== 'object' || Array.isArray(e.data)) problems.push('data must be an object');
  if (e.occurredAt !== undefined && !(e.occurredAt instanceof Date && !Number.isNaN(e.occurredAt.getTime())))
    problems.push('occurredAt must be a valid Date');
  if (problems.length) throw WebhookErrors.error('invalid_outbound_event', `invalid outbound event: ${problems.join('; ')}`);
}
