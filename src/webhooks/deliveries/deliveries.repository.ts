import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DeliveryAttemptDto, DeliveryDto } from '../dto/delivery.dto';
import { DeliveryStatus } from '../event-types';
import * as sql from '../../platform/database/sql';
import type { Row } from '../../platform/database/sql';

export interface DeliveryFilter {
  status?: DeliveryStatus;
  eventType?: string;
  limit: number;
  offset: number;
}

export type ReplayOutcome = { ok: true; delivery: DeliveryDto } | { ok: false; reason: 'not_found' | 'pending' | 'no_active_endpoint' };

/** Port: the tenant's view of the delivery log. */
export abstract class DeliveriesRepository {
  abstract list(tenantId: string, f: DeliveryFilter): Promise<[DeliveryDto[], number]>;
  abstract find(tenantId: string, id: string): Promise<DeliveryDto | null>;
  abstract attempts(deliveryId: string): Promise<DeliveryAttemptDto[]>;
  /** A new PENDING delivery of the same event to the domain's active endpoint, due at `now`. */
  abstract replay(tenantId: string, id: string, now: Date): Promise<ReplayOutcome>;
}

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
