import { DataSource } from 'typeorm';

/**
 * Runs `fn` while this process holds the session advisory lock `key` (bigint) on a connection of
 * its own: one replica at a time runs a job. `wait: false` gives up at once (resolves to null)
 * when another session holds it; `wait: true` queues behind it. The lock is released, and the
 * connection returned, however `fn` ends.
 */
export async function withAdvisoryLock<T>(ds: DataSource, key: number, opts: { wait: boolean }, fn: () => Promise<T>): Promise<T | null> {
  const qr = ds.createQueryRunner();
  await qr.connect();
  try {
    if (opts.wait) await qr.query('SELECT pg_advisory_lock($1)', [key]);
    else if (!(await qr.query('SELECT pg_try_advisory_lock($1) AS ok', [key]))[0].ok) return null;
    try {
      return await fn();
    } finally {
      await qr.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await qr.release();
  }
}
