/**
 * The process's last resort for an error nothing else handled. Every client the service opens
 * (pg clients, Redis, sockets) has its own `'error'` handling, so reaching here is a defect; the
 * question is only whether serving on is safe.
 *
 * - An unhandled promise rejection is logged with its stack and the process serves on: the
 *   rejected work was asynchronous and is already over; no caller waits on it, and nothing it did
 *   is half-applied in memory (database effects are transactional).
 * - An uncaught exception that is a lost connection (a network error code, PostgreSQL's
 *   connection-lost classes 08 and 57P0x, node-postgres's "Connection terminated") is logged and
 *   the process serves on: the dependency is gone, readiness says 503 until it returns, and a
 *   restart would cut every request in flight for nothing.
 * - Any other uncaught exception ends the process, on purpose, after it is logged: a throw from a
 *   callback outside every request and job leaves state nobody can vouch for, and the orchestrator
 *   restarts a clean replica.
 *
 * The log's own streams come first: stdout and stderr get an `'error'` listener that drops the
 * error. Without it a closed reader (`npm start | head`, a log collector gone) made each write
 * to stderr an uncaught EPIPE, which is a lost connection, logged to stderr, failing again: the
 * process spun on that loop at full CPU and no longer stopped on SIGTERM. Lines written after
 * the reader went are lost, which is all that can be done with them.
 */
const LOST_CONNECTION_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

export function isLostConnection(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  const code = typeof err?.code === 'string' ? err.code : '';
  if (LOST_CONNECTION_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || /^57P0[1-3]$/.test(code)) return true;
  const message = typeof err?.message === 'string' ? err.message : '';
  return /^Connection terminated( unexpectedly)?$|^Connection is closed\.?$|^read ECONNRESET$/.test(message);
}

export type LastResortLog = (fatal: boolean, msg: string, stack: string) => void;

export function installLastResort(log: LastResortLog, exit: (code: number) => void = (c) => process.exit(c)): () => void {
  const onRejection = (reason: unknown) => log(false, 'unhandled promise rejection (serving on)', stackOf(reason));
  const onException = (err: unknown, origin: string) => {
    if (isLostConnection(err)) {
      log(false, `uncaught lost connection from ${origin} (serving on; readiness follows the dependency)`, stackOf(err));
      return;
    }
    log(true, `uncaught exception from ${origin}: ending the process`, stackOf(err));
    exit(1);
  };
  const onLogStreamError = () => undefined; // the reader is gone: nothing to log it to
  process.stdout.on('error', onLogStreamError);
  process.stderr.on('error', onLogStreamError);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return () => {
    process.stdout.off('error', onLogStreamError);
    process.stderr.off('error', onLogStreamError);
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  };
}

function stackOf(e: unknown): string {
  return e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
}
