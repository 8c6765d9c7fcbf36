import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventDomain } from '../event-publisher';
import { EndpointStatus } from '../event-types';
import { Row, Tx, transaction } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';

export interface EndpointRecord {
  id: string;
  tenantId: string;
  domain: EventDomain;
  url: string;
  events: string[] | null;
  status: Exclude<EndpointStatus, 'DELETED'>;
  disabledReason: string | null;
  keyId: string;
  previousKeyId: string | null;
  previousExpiresAt: Date | null;
  rotatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface EndpointRegistration {
  tenantId: string;
  domain: EventDomain;
  url: string;
  events: string[] | null;
  keyId: string;
  secretBox: string;
  now: Date;
  /** When the secret being replaced stops being used (rotation grace). */
  previousExpiresAt: Date;
}

/** The stored boxes of one live registration (for a key rotation). */
export interface StoredBoxes {
  id: string;
  tenantId: string;
  domain: EventDomain;
  secretBox: string;
  previousSecretBox: string | null;
}

/** Port: webhook registrations (one per tenant and domain). */
export abstract class EndpointsRepository {
  /** Creates, or rotates in place (the current secret becomes the previous one until `previousExpiresAt`). */
  abstract register(r: EndpointRegistration): Promise<EndpointRecord>;
  abstract find(tenantId: string, domain: EventDomain): Promise<EndpointRecord | null>;
  /** Deletes the registration and forgets its secrets; its pending deliveries are cancelled. False when there was none. */
  abstract remove(tenantId: string, domain: EventDomain, now: Date): Promise<boolean>;
  /** Live registrations after `afterId` (id order) with a box not under `activeKeyId`, locked FOR UPDATE SKIP LOCKED. */
  abstract lockBoxesToRewrap(m: Tx, activeKeyId: string, afterId: string, limit: number): Promise<StoredBoxes[]>;
  abstract updateBoxes(m: Tx, id: string, secretBox: string, previousSecretBox: string | null): Promise<void>;
  /** Stored boxes (current and previous) per key id; `v1` for boxes written before key ids. */
  abstract countBoxesByKey(): Promise<Record<string, number>>;
}

const COLUMNS = `id, tenant_id, domain, url, events, status, disabled_reason, key_id, previous_key_id, previous_expires_at, rotated_at, created_at, updated_at`;

@Injectable()
export class SqlEndpointsRepository extends EndpointsRepository {
  constructor(private readonly ds: DataSource) {
    super();
  }

  async register(r: EndpointRegistration): Promise<EndpointRecord> {
    // One statement: a DELETED row is revived without a previous secret (a delete forgets
    // secrets, so DELETE then PUT is the way to cut an old secret off at once).
    const rows = await sql.rows<EndpointRow>(
      this.ds,
      `INSERT INTO webhook_endpoints AS w (tenant_id, domain, url, events, status, key_id, secret_box, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'ACTIVE', $5, $6, $7, $7)
       ON CONFLICT (tenant_id, domain) DO UPDATE SET
         url = EXCLUDED.url,
         events = EXCLUDED.events,
         status = 'ACTIVE',
         disabled_reason = NULL,
         previous_key_id = CASE WHEN w.status = 'DELETED' THEN NULL ELSE w.key_id END,
         previous_secret_box = CASE WHEN w.status = 'DELETED' THEN NULL ELSE w.secret_box END,
         previous_expires_at = CASE WHEN w.status = 'DELETED' THEN NULL ELSE $8::timestamptz END,
         key_id = EXCLUDED.key_id,
         secret_box = EXCLUDED.secret_box,
         rotated_at = CASE WHEN w.status = 'DELETED' THEN NULL ELSE $7::timestamptz END,
         created_at = CASE WHEN w.status = 'DELETED' THEN $7::timestamptz ELSE w.created_at END,
         updated_at = $7
       RETURNING ${COLUMNS}`,
      [r.tenantId, r.domain, r.url, r.events, r.keyId, r.secretBox, r.now, r.previousExpiresAt],
    );
    return toRecord(rows[0]);
  }

  async find(tenantId: string, domain: EventDomain): Promise<EndpointRecord | null> {
    const rows = await sql.rows<EndpointRow>(
      this.ds,
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE tenant_id = $1 AND domain = $2 AND status <> 'DELETED'`,
      [tenantId, domain],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async remove(tenantId: string, domain: EventDomain, now: Date): Promise<boolean> {
    return transaction(this.ds, async (m) => {
      // (UPDATE … RETURNING wrapped in a CTE: TypeORM answers [rows, count] for a bare UPDATE.)
      const rows = await sql.rows(
        m,
        `WITH del AS (
           UPDATE webhook_endpoints SET status = 'DELETED', disabled_reason = NULL, key_id = NULL, secret_box = NULL,
             previous_key_id = NULL, previous_secret_box = NULL, previous_expires_at = NULL, updated_at = $3
           WHERE tenant_id = $1 AND domain = $2 AND status <> 'DELETED' RETURNING id
         ) SELECT id FROM del`,
        [tenantId, domain, now],
      );
      if (!rows.length) return false;
      await sql.rows(
        m,
        `UPDATE webhook_deliveries SET status = 'CANCELLED', next_attempt_at = NULL, leased_until = NULL, claim_token = NULL, last_error = 'endpoint_deleted'
         WHERE endpoint_id = $1 AND status = 'PENDING'`,
        [rows[0].id],
      );
      return true;
    });
  }

  async lockBoxesToRewrap(m: Tx, activeKeyId: string, afterId: string, limit: number): Promise<StoredBoxes[]> {
    const rows = await sql.rows<
      sql.Present<Pick<EndpointRow, 'id' | 'tenant_id' | 'domain' | 'secret_box' | 'previous_secret_box'>, 'secret_box'>
    >(
      m,
      `SELECT id, tenant_id, domain, secret_box, previous_secret_box FROM webhook_endpoints
       WHERE id > $2 AND secret_box IS NOT NULL
         AND (secret_box NOT LIKE $1 OR (previous_secret_box IS NOT NULL AND previous_secret_box NOT LIKE $1))
       ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [`v2.${activeKeyId}.%`, afterId, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      tenantId: r.tenant_id,
      domain: r.domain as EventDomain,
      secretBox: r.secret_box,
      previousSecretBox: r.previous_secret_box,
    }));
  }

  async updateBoxes(m: Tx, id: string, secretBox: string, previousSecretBox: string | null): Promise<void> {
    // Only the boxes change: the key ids and secrets inside stay, so receivers notice nothing.
    await sql.rows(m, `UPDATE webhook_endpoints SET secret_box = $2, previous_secret_box = $3 WHERE id = $1 AND secret_box IS NOT NULL`, [
      id,
      secretBox,
      previousSecretBox,
    ]);
  }

  async countBoxesByKey(): Promise<Record<string, number>> {
    const rows = await sql.rows<{ k: string; n: number }>(
      this.ds,
      `SELECT k, count(*)::int AS n FROM (
         SELECT ${boxKeyId('secret_box')} AS k FROM webhook_endpoints WHERE secret_box IS NOT NULL
         UNION ALL
         SELECT ${boxKeyId('previous_secret_box')} FROM webhook_endpoints WHERE previous_secret_box IS NOT NULL) b
       GROUP BY k ORDER BY k`,
    );
    return Object.fromEntries(rows.map((r) => [r.k, r.n]));
  }
}

function boxKeyId(column: string): string {
  return `CASE WHEN ${column} LIKE 'v2.%' THEN split_part(${column}, '.', 2) ELSE 'v1' END`;
}

type EndpointRow = Row<'webhook_endpoints'>;

function toRecord(r: EndpointRow): EndpointRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    domain: r.domain as EndpointRecord['domain'],
    url: r.url,
    events: r.events,
    status: r.status as EndpointRecord['status'],
    disabledReason: r.disabled_reason,
    keyId: r.key_id as EndpointRecord['keyId'],
    previousKeyId: r.previous_key_id,
    previousExpiresAt: r.previous_expires_at,
    rotatedAt: r.rotated_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
