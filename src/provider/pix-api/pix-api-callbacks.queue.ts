import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pool, rows } from '../../../kernel/platform/database/sql';

export type CallbackKind = 'rec' | 'cobr';

export interface QueuedCallback {
  kind: CallbackKind;
  id: string;
  /** As PostgreSQL's text (microseconds kept: a JS Date would lose them and never match again). */
  receivedAt: string;
  attempts: number;
}

/**
 * The PSP's callbacks still to apply (`pix_api_callbacks`), one row per (kind, idRec|txid): a
 * callback is only a trigger to read the entity back, so a repeat while one is pending collapses
 * into it (made due now). Claimed with a lease (SKIP LOCKED, no lock held during the PSP call);
 * removed only if no newer callback arrived meanwhile.
 */
@Injectable()
export class PixApiCallbackQueue {
  constructor(private readonly ds: DataSource) {}

  /** One statement for a whole callback body. */
  async enqueue(kind: CallbackKind, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await rows(
      pool(this.ds),
      `INSERT INTO pix_api_callbacks (kind, id) SELECT $1, x FROM unnest($2::text[]) AS v(x)
       ON CONFLICT (kind, id) DO UPDATE SET received_at = now(), next_attempt_at = now()`,
      [kind, [...new Set(ids)]],
    );
  }

  async claim(limit: number, leaseMs: number): Promise<QueuedCallback[]> {
    const out = await rows(
      pool(this.ds),
      `WITH picked AS MATERIALIZED (
         SELECT kind, id FROM pix_api_callbacks WHERE next_attempt_at <= now() ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE pix_api_callbacks c SET next_attempt_at = now() + make_interval(secs => $2 / 1000.0), attempts = c.attempts + 1
       FROM picked WHERE c.kind = picked.kind AND c.id = picked.id
       RETURNING c.kind, c.id, c.received_at::text AS received_at, c.attempts`,
      [limit, leaseMs],
    );
    return out.map((r) => ({ kind: r.kind, id: r.id, receivedAt: r.received_at, attempts: Number(r.attempts) }));
  }

  /** Done: removed, unless a newer callback for the same entity arrived while it was applied. */
  async done(c: QueuedCallback): Promise<void> {
    await rows(pool(this.ds), `DELETE FROM pix_api_callbacks WHERE kind = $1 AND id = $2 AND received_at = $3::timestamptz`, [
      c.kind,
      c.id,
      c.receivedAt,
    ]);
  }

  async failed(c: QueuedCallback, retryInMs: number, error: string): Promise<void> {
    await rows(
      pool(this.ds),
      `UPDATE pix_api_callbacks SET next_attempt_at = now() + make_interval(secs => $3 / 1000.0), last_error = $4 WHERE kind = $1 AND id = $2`,
      [c.kind, c.id, retryInMs, error.slice(0, 500)],
    );
  }

  async dueNow(): Promise<number> {
    return Number((await rows(pool(this.ds), `SELECT count(*)::int AS n FROM pix_api_callbacks WHERE next_attempt_at <= now()`, []))[0].n);
  }

  async pending(): Promise<number> {
    return Number((await rows(pool(this.ds), `SELECT count(*)::int AS n FROM pix_api_callbacks`, []))[0].n);
  }
}
