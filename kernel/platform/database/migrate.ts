import { DataSource, Migration } from 'typeorm';
import { withAdvisoryLock } from './advisory-lock';

/** Key of the session advisory lock held while migrations run (any process, any replica). */
export const MIGRATIONS_LOCK_KEY = 7_000_000_001;

/**
 * Runs the pending migrations while holding the migrations advisory lock. TypeORM 1.x takes no
 * lock of its own, so replicas booting together on an empty database would each run the same
 * migrations at once (and all but one fail on duplicate objects). With the lock the others queue,
 * then find nothing pending. Each migration runs in its own transaction.
 */
export async function runMigrationsLocked(ds: DataSource): Promise<Migration[]> {
  return (await withAdvisoryLock(ds, MIGRATIONS_LOCK_KEY, { wait: true }, () => ds.runMigrations({ transaction: 'each' }))) ?? [];
}

/** Reverts the last applied migration under the same lock. */
export async function revertLastMigrationLocked(ds: DataSource): Promise<void> {
  await withAdvisoryLock(ds, MIGRATIONS_LOCK_KEY, { wait: true }, () => ds.undoLastMigration({ transaction: 'each' }));
}
