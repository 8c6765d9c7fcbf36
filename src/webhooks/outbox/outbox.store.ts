import { Injectable } from '@nestjs/common';
import { EventDomain } from '../event-publisher';
import { OutboxDb } from './outbox-db';
import type { Present, Row } from '../../../kernel/platform/database/sql';

/** A delivery claimed by one worker: invisible to the others until its lease ends. */
export interface ClaimedDelivery {
  id: string;
  token: string;
  /** The number of the attempt about to be made (1 = first). */
  attempt: number;
  tenantId: string;
  domain: EventDomain;
  eventId: string;
  eventType: string;
  idTx: string | null;
  /** The event's data as canonical JSON text (jsonb output), spliced into the body as is. */
  dataJson: string;
  occurredAt: Date;
  endpointId: string;
  url: string;
  keyId: string;
  secretBox: string;
  previousKeyId: string | null;
  previousSecretBox: string | null;
  previousExpiresAt: Date | null;
}

export type AttemptOutcome = 'delivered' | 'failed' | 'gone' | 'refused';

/** What one attempt did to a claimed delivery. */
export interface AttemptResult {
  kind: 'attempt';
  id: string;
  token: string;
  endpointId: string;
  status: 'PENDING' | 'DELIVERED' | 'DEAD' | 'CANCELLED';
  nextAttemptAt: Date | null;
  attempt: number;
  url: string;
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseSnippet: string | null;
  at: Date;
}

/** A claimed delivery handed back untried (breaker open, shutdown, waited too long): no attempt is used. */
export interface Deferral {
  kind: 'defer';
  id: string;
  token: string;
  /** When it is due again; null keeps its place (due as before, for any worker). */
  until: Date | null;
}

export type DeliveryResult = AttemptResult | Deferral;

export interface ClaimRequest {
  /** Business time (the sandbox test clock when it runs): which deliveries are due. */
  now: Date;
  /**
   * Wall-clock time: leases guard against a crashed worker, a real-time matter. Were they on the
   * test clock, advancing it a day would expire every lease in flight and send those rows twice.
   */
  wallNow: Date;
  leaseUntil: Date;
  token: string;
  limit: number;
  /** Rows per endpoint when the endpoint has no entry in `perEndpoint`. */
  defaultPerEndpoint: number;
  /** Per-endpoint caps (0 = skip the endpoint this time: its host is busy). */
  perEndpoint: Map<string, number>;
}

/** The outbox as the delivery worker sees it (through its own pool, see OutboxDb). Every method is one SQL statement. */
/** A claimed delivery with its event and endpoint, as the claim statement joins them. */
type ClaimedRow = Pick<Row<'webhook_deliveries'>, 'id' | 'attempts' | 'tenant_id' | 'domain'> &
  Pick<Row<'webhook_events'>, 'type' | 'id_tx' | 'occurred_at'> & { event_id: string; data: string; endpoint_id: string } & Present<
    Pick<Row<'webhook_endpoints'>, 'url' | 'key_id' | 'secret_box' | 'previous_key_id' | 'previous_secret_box' | 'previous_expires_at'>,
    'key_id' | 'secret_box' // an ACTIVE endpoint always has its key
  >;

@Injectable()
export class OutboxStore {
  constructor(private readonly db: OutboxDb) {}

  /**
   * Claims due rows fairly: endpoints in random order, at most `cap` rows each, oldest first,
   * with FOR UPDATE SKIP LOCKED so concurrent workers never take the same row. The claim sets
   * only `leased_until` and `claim_token` (a HOT update): the row stays "due" but is skipped by
   * other workers until the lease ends, when a crashed worker's rows come back by themselves.
   * The result update must present the claim token.
   */
  async claim(r: ClaimRequest): Promise<ClaimedDelivery[]> {
    const ids = [...r.perEndpoint.keys()];
    const caps = ids.map((k) => r.perEndpoint.get(k)!);
    const rows = await this.db.query<ClaimedRow>(
      `WITH picked AS (
         SELECT d.id
         FROM (
           SELECT e.id, COALESCE(c.cap, $4::int) AS cap
           FROM webhook_endpoints e
           LEFT JOIN unnest($5::uuid[], $6::int[]) AS c(id, cap) ON c.id = e.id
           WHERE e.status = 'ACTIVE' AND COALESCE(c.cap, $4::int) > 0
           ORDER BY random()
         ) e
         CROSS JOIN LATERAL (
           SELECT x.id FROM webhook_deliveries x
           WHERE x.endpoint_id = e.id AND x.status = 'PENDING' AND x.next_attempt_at <= $1
             AND (x.leased_until IS NULL OR x.leased_until <= $8)
           ORDER BY x.next_attempt_at
           LIMIT e.cap
           FOR UPDATE SKIP LOCKED
         ) d
         LIMIT $3
       ), claimed AS (
         UPDATE webhook_deliveries w SET leased_until = $2, claim_token = $7
         WHERE w.id = ANY (ARRAY(SELECT id FROM picked))
         RETURNING w.id, w.attempts, w.tenant_id, w.domain, w.event_id, w.endpoint_id
       )
       SELECT c.id, c.attempts, c.tenant_id, c.domain, ev.id AS event_id, ev.type, ev.id_tx, ev.data::text AS data, ev.occurred_at,
              ep.id AS endpoint_id, ep.url, ep.key_id, ep.secret_box, ep.previous_key_id, ep.previous_secret_box, ep.previous_expires_at
       FROM claimed c
       JOIN webhook_events ev ON ev.id = c.event_id
       JOIN webhook_endpoints ep ON ep.id = c.endpoint_id`,
      [r.now, r.leaseUntil, r.limit, r.defaultPerEndpoint, ids, caps, r.token, r.wallNow],
    );
    return rows.map((x) => ({
      id: x.id,
      token: r.token,
      attempt: x.attempts + 1,
      tenantId: x.tenant_id,
      domain: x.domain as EventDomain,
      eventId: x.event_id,
      eventType: x.type,
      idTx: x.id_tx,
      dataJson: x.data,
      occurredAt: x.occurred_at,
      endpointId: x.endpoint_id,
      url: x.url,
      keyId: x.key_id,
      secretBox: x.secret_box,
      previousKeyId: x.previous_key_id,
      previousSecretBox: x.previous_secret_box,
      previousExpiresAt: x.previous_expires_at,
    }));
  }

  /**
   * Records a batch of results in ONE statement: the delivery rows (only where the claim token
   * still matches and the row is still PENDING: a row re-claimed after a lease expiry, or
   * cancelled meanwhile, is not overwritten) and one attempt row per attempt made.
   * Answers how many delivery rows were updated. The rows are found by their ids through the
   * primary key (`id = ANY (ARRAY(…))`, as the claim does): joined on `d.id = v.id` alone, the
   * planner built a hash of every PENDING row of the table (from the due index) for each batch,
   * a cost that grew with the backlog (2 ms a batch at 10 000 pending rows, stale statistics
   * after a burst).
   */
  async record(results: DeliveryResult[]): Promise<number> {
    const ids: string[] = [];
    const tokens: string[] = [];
    const statuses: string[] = [];
    const incs: number[] = [];
    const nexts: (Date | null)[] = [];
    const codes: (number | null)[] = [];
    const errors: (string | null)[] = [];
    const ats: (Date | null)[] = [];
    const a = {
      id: [] as string[],
      attempt: [] as number[],
      url: [] as string[],
      outcome: [] as string[],
      code: [] as (number | null)[],
      latency: [] as number[],
      error: [] as (string | null)[],
      snippet: [] as (string | null)[],
      at: [] as Date[],
    };
    for (const r of results) {
      ids.push(r.id);
      tokens.push(r.token);
      if (r.kind === 'defer') {
        statuses.push('PENDING');
        incs.push(0);
        nexts.push(r.until);
        codes.push(null);
        errors.push(null);
        ats.push(null);
        continue;
      }
      statuses.push(r.status);
      incs.push(1);
      nexts.push(r.nextAttemptAt);
      codes.push(r.statusCode);
      errors.push(r.error);
      ats.push(r.at);
      a.id.push(r.id);
      a.attempt.push(r.attempt);
      a.url.push(r.url);
      a.outcome.push(r.outcome);
      a.code.push(r.statusCode);
      a.latency.push(r.latencyMs);
      a.error.push(r.error);
      a.snippet.push(r.responseSnippet);
      a.at.push(r.at);
    }
    const rows = await this.db.query(
      `WITH v AS (
         SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int[], $5::timestamptz[], $6::int[], $7::text[], $8::timestamptz[])
           AS v(id, token, status, inc, next_at, status_code, error, at)
       ), upd AS (
         UPDATE webhook_deliveries d SET
           status = v.status,
           attempts = d.attempts + v.inc,
           next_attempt_at = CASE WHEN v.inc = 0 AND v.next_at IS NULL THEN d.next_attempt_at ELSE v.next_at END,
           leased_until = NULL,
           claim_token = NULL,
           last_attempt_at = CASE WHEN v.inc = 1 THEN v.at ELSE d.last_attempt_at END,
           last_status_code = CASE WHEN v.inc = 1 THEN v.status_code ELSE d.last_status_code END,
           last_error = CASE WHEN v.inc = 1 THEN v.error ELSE d.last_error END,
           delivered_at = CASE WHEN v.status = 'DELIVERED' THEN v.at ELSE NULL END
         FROM v
         WHERE d.id = ANY (ARRAY(SELECT v.id FROM v)) AND d.id = v.id AND d.claim_token = v.token AND d.status = 'PENDING'
         RETURNING d.id
       ), att AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, attempt, url, outcome, status_code, latency_ms, error, response_snippet, created_at)
         SELECT * FROM unnest($9::uuid[], $10::int[], $11::text[], $12::text[], $13::int[], $14::int[], $15::text[], $16::text[], $17::timestamptz[])
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM upd)::int AS updated, (SELECT count(*) FROM att)::int AS attempts`,
      [
        ids,
        tokens,
        statuses,
        incs,
        nexts,
        codes,
        errors,
        ats,
        a.id,
        a.attempt,
        a.url,
        a.outcome,
        a.code,
        a.latency,
        a.error,
        a.snippet,
        a.at,
      ],
    );
    return rows[0].updated;
  }

  /**
   * 410 Gone: the endpoint is disabled (only if it still points to the URL that answered 410)
   * and its pending deliveries are cancelled; a PUT re-enables it and a replay resends.
   */
  async disableGone(gone: { endpointId: string; url: string }[], now: Date): Promise<string[]> {
    if (!gone.length) return [];
    const rows = await this.db.query(
      `WITH g AS (SELECT * FROM unnest($1::uuid[], $2::text[]) AS g(id, url)),
       dis AS (
         UPDATE webhook_endpoints e SET status = 'DISABLED', disabled_reason = 'endpoint_gone', updated_at = $3
         FROM g WHERE e.id = g.id AND e.url = g.url AND e.status = 'ACTIVE'
         RETURNING e.id
       ), cancelled AS (
         UPDATE webhook_deliveries d SET status = 'CANCELLED', next_attempt_at = NULL, leased_until = NULL, claim_token = NULL, last_error = 'endpoint_gone'
         WHERE d.endpoint_id IN (SELECT id FROM dis) AND d.status = 'PENDING'
         RETURNING 1
       )
       SELECT id, (SELECT count(*) FROM cancelled)::int AS cancelled FROM dis`,
      [gone.map((g) => g.endpointId), gone.map((g) => g.url), now],
    );
    return rows.map((r) => r.id);
  }

  /** Age of the oldest due row of an active endpoint, in ms (0 when nothing is due). */
  async lagMs(now: Date): Promise<number> {
    const rows = await this.db.query(
      `SELECT min(d.next_attempt_at) AS oldest
       FROM webhook_endpoints e
       CROSS JOIN LATERAL (
         SELECT x.next_attempt_at FROM webhook_deliveries x
         WHERE x.endpoint_id = e.id AND x.status = 'PENDING' AND x.next_attempt_at <= $1
         ORDER BY x.next_attempt_at LIMIT 1
       ) d
       WHERE e.status = 'ACTIVE'`,
      [now],
    );
    const oldest: Date | null = rows[0]?.oldest ?? null;
    return oldest ? Math.max(0, now.getTime() - oldest.getTime()) : 0;
  }
}
