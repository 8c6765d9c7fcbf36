/** A readiness check another module contributes (breakers, Redis, outbox lag). */
export interface ReadinessCheck {
  name: string;
  /** `down` makes readiness 503; `degraded` keeps it 200 but says so. */
  check(): Promise<{ status: 'up' | 'degraded' | 'down'; [detail: string]: unknown }>;
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
