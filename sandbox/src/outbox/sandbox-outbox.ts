import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import * as sql from '../../../kernel/platform/database/sql';

/** How long a claimed row is the claimer's: another replica's pass skips it until then. */
const LEASE_SECONDS = 30;
/** The wait before the next attempt after the n-th failed one (the last repeats). */
export const BACKOFF_SECONDS: readonly number[] = [1, 2, 5, 10, 30, 60, 300];

/** The sandbox's outbox tables: each sender's own rows, one shape of delivery columns. */
export type SandboxOutboxTable = 'sandbox_acquirer_notifications' | 'sandbox_adyen_webhooks' | 'sandbox_psp_pix_callbacks';

/** A claimed row: its id, the attempt this is (1 for the first), and the columns the sender asked for. */
export type Claimed<R> = R & { id: string; attempts: number };

/**
 * What a sender's attempt came to: `null` delivered; `{ drop }` settled without delivery (no
 * receiver configured, or a receiver that refused for good), the reason kept as the row's
 * last error; `{ retry }` not delivered, tried again after the backoff.
 */
export type Outcome = null | { drop: string } | { retry: string };

/**
 * The one delivery mechanism of the sandbox's senders (the acquirer's signed notifications, the
 * Adyen face's standard webhooks, the API Pix PSP's callbacks): each keeps its rows in its own
 * table (written in the transaction of the change they report), with the same delivery columns
 * (`attempts`, `next_attempt_at`, `delivered_at`, `last_error`, `created_at`), and sends them
 * through this: rows are claimed oldest first with FOR UPDATE SKIP LOCKED and leased for
 * LEASE_SECONDS, so two replicas never send one together and a sender that dies mid-send is
 * retried when the lease ends; an attempt is recorded as delivered, dropped (with its reason) or
 * failed, then due again after BACKOFF_SECONDS; the table is the delivery log.
 */
export class SandboxOutbox<R extends object> {
  private readonly logger: Logger;

  /** `columns`: what a claim returns besides `id` and `attempts` (a list of the table's columns). */
  constructor(
    private readonly ds: DataSource,
    private readonly table: SandboxOutboxTable,
    private readonly columns: string,
    private readonly what: string,
  ) {
    this.logger = new Logger(`SandboxOutbox:${table}`);
  }

  /** Leases up to `limit` undelivered rows matching `where` (SQL over the table's columns, `$n` params). */
  claim(where: string, params: unknown[], limit: number): Promise<Claimed<R>[]> {
    const t = this.table;
    return sql.rows<Claimed<R>>(
      this.ds,
      `UPDATE ${t} SET attempts = attempts + 1, next_attempt_at = now() + interval '${LEASE_SECONDS} seconds'
       WHERE id IN (SELECT id FROM ${t} WHERE delivered_at IS NULL AND (${where})
                    ORDER BY created_at LIMIT ${Number(limit)} FOR UPDATE SKIP LOCKED)
       RETURNING id, attempts, ${this.columns}`,
      params,
    );
  }

  /** Due rows (the tick's pass): claimed, each sent by `send`, each outcome recorded. Answers how many. */
  async deliverDue(limit: number, send: (row: Claimed<R>) => Promise<Outcome>): Promise<number> {
    return this.deliver(await this.claim('next_attempt_at <= now()', [], limit), send);
  }

  /** These rows, now (after the transaction that wrote them committed); a failure stays for the tick. */
  async deliverNow(ids: string[], send: (row: Claimed<R>) => Promise<Outcome>): Promise<number> {
    if (!ids.length) return 0;
    return this.deliver(await this.claim('id = ANY($1::uuid[])', [ids], ids.length), send);
  }

  private async deliver(rows: Claimed<R>[], send: (row: Claimed<R>) => Promise<Outcome>): Promise<number> {
    await Promise.all(rows.map(async (r) => this.record([r.id], r.attempts, await send(r).catch((e: Error) => ({ retry: e.message })))));
    return rows.length;
  }

  /** Records one attempt's outcome for rows claimed together (`attempts`: the attempt it was). */
  async record(ids: string[], attempts: number, outcome: Outcome): Promise<void> {
    if (outcome === null || 'drop' in outcome) {
      await sql.exec(this.ds, `UPDATE ${this.table} SET delivered_at = now(), last_error = $2 WHERE id = ANY($1::uuid[])`, [
        ids,
        outcome?.drop ?? null,
      ]);
      return;
    }
    const wait = BACKOFF_SECONDS[Math.min(attempts - 1, BACKOFF_SECONDS.length - 1)];
    this.logger.warn({ rows: ids.length, attempts, error: outcome.retry, retryInSeconds: wait }, `${this.what} not delivered; will retry`);
    await sql
      .exec(
        this.ds,
        `UPDATE ${this.table} SET next_attempt_at = now() + make_interval(secs => $2), last_error = $3 WHERE id = ANY($1::uuid[])`,
        [ids, wait, outcome.retry.slice(0, 500)],
      )
      .catch(() => undefined); // the lease ends by itself: the row is due again then
  }
}
