/** How a kind of job is retried: a pure value, so the schedule is tested without a database. */
export interface JobPolicy {
  /** Tries before the job is dead (the first included); at least 1. */
  maxAttempts: number;
  /** The wait after the first failure; each later one is three times the one before. */
  baseDelayMs: number;
  /** The longest wait between two tries. */
  maxDelayMs: number;
  /** The class of dependency readiness names when a job of this kind is dead (`acquirer`, `bank`, `webhooks`…). */
  dependency: string;
}

/** The wait before try `attempts + 1`, after `attempts` failures (1, 3, 9… × base, capped). */
export function backoffMs(policy: JobPolicy, attempts: number): number {
  const n = Math.max(1, attempts);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 3 ** Math.min(n - 1, 30));
}
