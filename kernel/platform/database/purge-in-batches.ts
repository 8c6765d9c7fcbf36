import { DataSource } from 'typeorm';
import { Tx, maybeOne, transaction } from './sql';

/**
 * A purge that never holds a long transaction and runs on one replica at a time: each batch is
 * its own transaction under `pg_try_advisory_xact_lock(hashtext(lock))` and deletes up to `batch`
 * rows (`deleteBatch` answers how many, e.g. `(await exec(tx, 'DELETE …')).count`). Batches go on
 * until one deletes fewer than `batch`, or `maxBatches` ran (the next run goes on); when another
 * session holds the lock, it stops at once. Resolves to the rows deleted.
 */
export async function purgeInBatches(
  ds: DataSource,
  opts: { lock: string; batch: number; maxBatches: number },
  deleteBatch: (tx: Tx, limit: number) => Promise<number>,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < opts.maxBatches; i++) {
    const n = await transaction(ds, async (tx) => {
      const got = await maybeOne<{ locked: boolean }>(tx, `SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked`, [opts.lock]);
      return got?.locked ? deleteBatch(tx, opts.batch) : null;
    });
    if (n === null) break;
    total += n;
    if (n < opts.batch) break;
  }
  return total;
}
