import { Client, ClientConfig } from 'pg';

/**
 * Every `pg` client the service opens (both pools' and any dedicated one) is this class, given to
 * the pools as their `Client`. node-postgres emits `'error'` on a client whose connection is lost
 * (the server died, `pg_terminate_backend`, a network cut); a pool listens only while the client
 * is idle in it, so a client checked out at that moment (a transaction between two statements, a
 * job holding its advisory lock, a query in flight) had no listener, and an unhandled `'error'`
 * event ends the process. Here every client listens for its whole life. Nothing is lost by it:
 * the same error is delivered to the query waiting on that connection (its unit of work fails and
 * rolls back with it), the client is marked unqueryable, and the pool discards it on release.
 */
export class GuardedPgClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', (e: Error) => connectionLost(e));
  }
}

let listener: ((e: Error) => void) | null = null;

/** Who hears of a lost connection (the database module logs it once per burst); one at a time. */
export function onPgConnectionLost(fn: ((e: Error) => void) | null): void {
  listener = fn;
}

function connectionLost(e: Error): void {
  try {
    listener?.(e);
  } catch {
    /* a listener's own failure must not turn a handled error into an unhandled one */
  }
}
