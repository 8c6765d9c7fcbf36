import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DeliveryAttemptDto, DeliveryDto } from '../dto/delivery.dto';
import { DeliveryStatus } from '../event-types';
import { EventDomain } from '../event-publisher';
import * as sql from '../../../kernel/platform/database/sql';
import type { Row } from '../../../kernel/platform/database/sql';

export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: string;
  limit: number;
  offset: number;
}

export type ReplayOutcome = { ok: true; delivery: DeliveryDto } | { ok: false; reason: 'not_found' | 'pending' | 'no_active_endpoint' };

export type RetryNowOutcome = { ok: true; delivery: DeliveryDto } | { ok: false; reason: 'not_found' | 'not_pending' | 'in_flight' };

/** `now` is business time (which rows are due, as the worker's claim sees it); `wallNow` is wall-clock time (leases). */
export interface RetryClock {
  now: Date;
  wallNow: Date;
}

/** Port: the tenant's view of the delivery log. */
export abstract class DeliveriesRepository {
  abstract list(tenantId: string, f: DeliveryFilter): Promise<[DeliveryDto[], number]>;
  abstract find(tenantId: string, id: string): Promise<DeliveryDto | null>;
  abstract attempts(deliveryId: string): Promise<DeliveryAttemptDto[]>;
  /** A new PENDING delivery of the same event to the domain's active endpoint, due at `now`. */
  abstract replay(tenantId: string, id: string, now: Date): Promise<ReplayOutcome>;
  /** A PENDING delivery no worker holds becomes due at `now` (its attempt count and schedule are kept). */
  abstract retryNow(tenantId: string, id: string, at: RetryClock): Promise<RetryNowOutcome>;
  /** Every PENDING delivery of the domain's active endpoint that no worker holds becomes due at `now`; their ids. */
  abstract retryPending(tenantId: string, domain: EventDomain, at: RetryClock): Promise<string[]>;
}

/**
 * Hurrying a delivery only moves its due time: the worker, which claims due rows FOR UPDATE SKIP
 * LOCKED, still makes the attempt, so a delivery is never sent twice at once. A row a worker
 * holds (an unexpired lease) is left alone: it is being sent right now. Under READ COMMITTED a
 * claim that commits while this statement waits on the row is re-checked, so the lease test
 * holds even then.
 */
const HURRY_WHERE = `d.status = 'PENDING' AND (d.leased_until IS NULL OR d.leased_until <= $4)`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COLUMNS = `id, event_id, domain, event_type, status, attempts, next_attempt_at, last_attempt_at, last_status_code, last_error, delivered_at, replay_of, created_at`;

@Injectable()
export class SqlDeliveriesRepository extends DeliveriesRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async list(tenantId: string, f: DeliveryFilter): Promise<[DeliveryDto[], number]> {
    const where = ['tenant_id = $1'];
    const params: unknown[] = [tenantId];
    if (f.status) where.push(`status = $${params.push(f.status)}`);
    if (f.eventType) where.push(`event_type = $${params.push(f.eventType)}`);
    const cond = where.join(' AND ');
    const [rows, count] = await Promise.all([
      sql.rows<DeliveryRow>(
        this.ds,
        `SELECT ${COLUMNS} FROM webhook_deliveries WHERE ${cond} ORDER BY created_at DESC, id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, f.limit, f.offset],
      ),
      sql.rows<{ n: number }>(this.ds, `SELECT count(*)::int AS n FROM webhook_deliveries WHERE ${cond}`, params),
    ]);
    return [rows.map(toDto), count[0].n];
  }

  async find(tenantId: string, id: string): Promise<DeliveryDto | null> {
    if (!UUID.test(id)) return null;
    const rows = await sql.rows<DeliveryRow>(this.ds, `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND tenant_id = $2`, [
      id,
      tenantId,
    ]);
    return rows[0] ? toDto(rows[0]) : null;
  }

  async attempts(deliveryId: string): Promise<DeliveryAttemptDto[]> {
    const rows = await sql.rows<Row<'webhook_delivery_attempts'>>(
      this.ds,
      `SELECT attempt, url, outcome, status_code, latency_ms, error, response_snippet, created_at
       FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt, id`,
      [deliveryId],
    );
    return rows.map((r) => ({
      attempt: r.attempt,
      url: r.url,
      outcome: r.outcome,
      statusCode: r.status_code,
      latencyMs: r.latency_ms,
      error: r.error,
      responseSnippet: r.response_snippet,
      at: r.created_at.toISOString(),
    }));
  }

  async replay(tenantId: string, id: string, now: Date): Promise<ReplayOutcome> {
    if (!UUID.test(id)) return { ok: false, reason: 'not_found' };
    // 23503: the retention job deleted the event while this insert waited on it (it locks the
    // events it deletes); to the caller the delivery is simply gone.
    const rows = await sql
      .rows<DeliveryRow>(
        this.ds,
        `INSERT INTO webhook_deliveries (tenant_id, event_id, endpoint_id, domain, event_type, status, next_attempt_at, replay_of, created_at)
       SELECT d.tenant_id, d.event_id, e.id, d.domain, d.event_type, 'PENDING', $3::timestamptz, d.id, $3::timestamptz
       FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.tenant_id = d.tenant_id AND e.domain = d.domain AND e.status = 'ACTIVE'
       WHERE d.id = $1 AND d.tenant_id = $2 AND d.status <> 'PENDING'
       RETURNING ${COLUMNS}`,
        [id, tenantId, now],
      )
      .catch((e) => {
        if ((e?.code ?? e?.driverError?.code) === '23503') return [];
        throw e;
      });
    if (rows[0]) return { ok: true, delivery: toDto(rows[0]) };
    const original = await this.find(tenantId, id);
    if (!original) return { ok: false, reason: 'not_found' };
    return { ok: false, reason: original.status === 'PENDING' ? 'pending' : 'no_active_endpoint' };
  }

  async retryNow(tenantId: string, id: string, at: RetryClock): Promise<RetryNowOutcome> {
    if (!UUID.test(id)) return { ok: false, reason: 'not_found' };
    const rows = await sql.rows<DeliveryRow>(
      this.ds,
      `UPDATE webhook_deliveries d SET next_attempt_at = LEAST(d.next_attempt_at, $3::timestamptz)
       WHERE d.id = $1 AND d.tenant_id = $2 AND ${HURRY_WHERE}
       RETURNING ${COLUMNS}`,
      [id, tenantId, at.now, at.wallNow],
    );
    if (rows[0]) return { ok: true, delivery: toDto(rows[0]) };
    const current = await this.find(tenantId, id);
    if (!current) return { ok: false, reason: 'not_found' };
    return { ok: false, reason: current.status === 'PENDING' ? 'in_flight' : 'not_pending' };
  }

  async retryPending(tenantId: string, domain: EventDomain, at: RetryClock): Promise<string[]> {
    const rows = await sql.rows<{ id: string }>(
      this.ds,
      `UPDATE webhook_deliveries d SET next_attempt_at = LEAST(d.next_attempt_at, $3::timestamptz)
       FROM webhook_endpoints e
       WHERE e.tenant_id = $1 AND e.domain = $2 AND e.status = 'ACTIVE' AND d.endpoint_id = e.id AND ${HURRY_WHERE}
       RETURNING d.id`,
      [tenantId, domain, at.now, at.wallNow],
    );
    return rows.map((r) => r.id).sort();
  }
}

function iso(d: Date | null): string | null {
  return d ? d.toISOString() : null;
}

type DeliveryRow = Row<'webhook_deliveries'>;

function toDto(r: DeliveryRow): DeliveryDto {
  return {
    id: r.id,
    eventId: r.event_id,
    domain: r.domain,
    eventType: r.event_type,
    status: r.status as DeliveryDto['status'],
    attempts: r.attempts,
    nextAttemptAt: iso(r.next_attempt_at),
    lastAttemptAt: iso(r.last_attempt_at),
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    deliveredAt: iso(r.delivered_at),
    replayOf: r.replay_of,
    createdAt: r.created_at.toISOString(),
  };
}
