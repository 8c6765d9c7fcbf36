export type CheckStatus = 'up' | 'degraded' | 'down';
export type CheckResult = { status: CheckStatus; [detail: string]: unknown };

/** A readiness check another module contributes (breakers, Redis, outbox lag). */
export interface ReadinessCheck {
  name: string;
  /**
   * The class of dependency it tells about (`database`, `redis`, `bank`, `acquirer`, `webhooks`…):
   * without the operator key, /health/ready says only one status per class, never the details.
   */
  dependency: string;
  /** `down` makes readiness 503; `degraded` keeps it 200 but says so. */
  check(): Promise<CheckResult>;
  /** For a check that tells about several classes (the breakers): its result's status per class. */
  byDependency?(result: CheckResult): Record<string, CheckStatus>;
}

const RANK: Record<CheckStatus, number> = { up: 0, degraded: 1, down: 2 };

/** The worse of two statuses (`undefined`: none yet). */
export function worst(a: CheckStatus | undefined, b: CheckStatus): CheckStatus {
  return a === undefined || RANK[b] > RANK[a] ? b : a;
}

export class HealthRegistry {
  private readonly checks: ReadinessCheck[] = [];

  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  all(): readonly ReadinessCheck[] {
    return this.checks;
  }
}
