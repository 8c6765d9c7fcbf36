import { DataSource, EntityManager } from 'typeorm';

/**
 * A purge that never holds a long transaction and runs on one replica at a time: each batch is
 * its own transaction under `pg_try_advisory_xact_lock(hashtext(lock))` and deletes up to `batch`
 * rows (`deleteBatch` answers how many). Batches go on until one deletes fewer than `batch`, or
 * `maxBatches` ran (the next run goes on); when another session holds the lock, it stops at once.
 * Resolves to the rows deleted.
 */
export async function purgeInBatches(
  ds: DataSource,
  opts: { lock: string; batch: number; maxBatches: number },
  deleteBatch: (m: EntityManager, limit: number) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < opts.maxBatches; i++) {
    const n = await ds.transaction(async (m) => {
      const [{ locked }] = await m.query(`SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [opts.lock]);
      return locked ? deleteBatch(m, opts.batch) : null;
    });
    if (n === null) break;
    total += n;
    if (n < opts.batch) break;
  }
  return total;
}

/** TypeORM answers a DELETE with [rows, affected count]. */
export function deletedCount(result: unknown): number {
  return Number((result as [unknown, number])[1] ?? 0);
}
