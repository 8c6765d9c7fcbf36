import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { purgeInBatches } from '../database/purge-in-batches';
import * as sql from '../database/sql';

export interface StoredResponse {
  requestHash: string;
  status: 'IN_FLIGHT' | 'DONE';
  responseStatus: number | null;
  responseBody: unknown;
}

/** Port: Idempotency-Key records, per tenant, in PostgreSQL. */
export abstract class IdempotencyStore {
  /** Inserts an IN_FLIGHT record; true when this caller now owns the key. */
  abstract claim(tenantId: string, key: string, requestHash: string): Promise<boolean>;
  abstract find(tenantId: string, key: string): Promise<StoredResponse | null>;
  abstract complete(tenantId: string, key: string, status: number, body: unknown): Promise<void>;
  /** The work failed without a reproducible answer: the key is free again. */
  abstract release(tenantId: string, key: string): Promise<void>;
  abstract purgeExpired(): Promise<number>;
}

/** A crashed owner's claim is taken over after this long. */
const LOCK_SECONDS = 60;
const KEEP_HOURS = 24;
const PURGE_BATCH = 5000;
/** One run deletes at most 5 million records; the next hour goes on. */
const PURGE_MAX_BATCHES = 1000;

@Injectable()
export class SqlIdempotencyStore extends IdempotencyStore {
  constructor(private readonly ds: DataSource) {
    super();
  }

  /**
   * One statement: a new key, an expired record, or a claim whose owner died (lock passed)
   * is taken; a live record is left alone. The unique (tenant_id, key) decides races.
   */
  async claim(tenantId: string, key: string, requestHash: string): Promise<boolean> {
    const rows = await sql.rows(
      this.ds,
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, status, locked_until, expires_at)
       VALUES ($1, $2, $3, 'IN_FLIGHT', now() + make_interval(secs => ${LOCK_SECONDS}), now() + make_interval(hours => ${KEEP_HOURS}))
       ON CONFLICT (tenant_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, status = 'IN_FLIGHT', response_status = NULL, response_body = NULL,
             locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at, created_at = now()
         WHERE idempotency_keys.expires_at < now()
            OR (idempotency_keys.status = 'IN_FLIGHT' AND idempotency_keys.locked_until < now())
       RETURNING 1 AS claimed`,
      [tenantId, key, requestHash],
    );
    return rows.length === 1;
  }

  async find(tenantId: string, key: string): Promise<StoredResponse | null> {
    const rows = await sql.rows(
      this.ds,
      `SELECT request_hash, status, response_status, response_body FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND expires_at >= now()`,
      [tenantId, key],
    );
    const r = rows[0];
    return r ? { requestHash: r.request_hash, status: r.status, responseStatus: r.response_status, responseBody: r.response_body } : null;
  }

  async complete(tenantId: string, key: string, status: number, body: unknown): Promise<void> {
    await sql.rows(
      this.ds,
      `UPDATE idempotency_keys SET status = 'DONE', response_status = $3, response_body = $4::jsonb WHERE tenant_id = $1 AND key = $2 AND status = 'IN_FLIGHT'`,
      [tenantId, key, status, JSON.stringify(body ?? null)],
    );
  }

  async release(tenantId: string, key: string): Promise<void> {
    await sql.rows(this.ds, `DELETE FROM idempotency_keys WHERE tenant_id = $1 AND key = $2 AND status = 'IN_FLIGHT'`, [tenantId, key]);
  }

  /**
   * Deletes every expired record, in short transactions of PURGE_BATCH rows (one replica at a
   * time: an advisory lock per batch), until none is left or PURGE_MAX_BATCHES have run.
   */
  purgeExpired(): Promise<number> {
    return purgeInBatches(
      this.ds,
      { lock: 'idempotency-purge', batch: PURGE_BATCH, maxBatches: PURGE_MAX_BATCHES },
      async (tx, limit) =>
        (
          await sql.exec(
            tx,
            `DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE expires_at < now() LIMIT $1)`,
            [limit],
          )
        ).count,
    );
  }
}
