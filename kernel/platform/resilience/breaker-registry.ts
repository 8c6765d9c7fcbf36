import { Injectable } from '@nestjs/common';
import CircuitBreaker from 'opossum';
import { Counter, Gauge } from 'prom-client';
import { CheckStatus, HealthRegistry, worst } from '../health/health-registry';
import { MetricsService } from '../metrics/metrics.service';
import { BreakerSettings, DEFAULT_BREAKER_SETTINGS } from './breaker-settings';

export interface BreakerOptions extends Partial<BreakerSettings> {
  /** Per-call timeout in ms (opossum rejects after it). */
  timeoutMs: number;
  /** Whether an open breaker makes readiness fail (`down`) or only `degraded`. */
  critical?: boolean;
  /** The class of dependency /health/ready's summary counts it in (`bank`, `acquirer`, `webhooks`…); its name's first part by default. */
  dependency?: string;
}

const STATE = { closed: 0, halfOpen: 1, open: 2 } as const;

/**
 * Every circuit breaker of the service, by name: the provider operations, the acquirer, each
 * webhook destination host. Their states appear in /health/ready and /metrics.
 */
@Injectable()
export class BreakerRegistry {
  private readonly breakers = new Map<string, { breaker: CircuitBreaker<any[], any>; critical: boolean; dependency: string }>();
  private readonly stateGauge: Gauge<'breaker'>;
  private readonly events: Counter<'breaker' | 'event'>;

  constructor(metrics: MetricsService, health: HealthRegistry) {
    this.stateGauge = new Gauge({
      name: 'circuit_breaker_state',
      help: 'Circuit breaker state: 0 closed, 1 half-open, 2 open',
      labelNames: ['breaker'] as const,
      registers: [metrics.registry],
      collect: () => {
        for (const [name, { breaker }] of this.breakers) this.stateGauge.set({ breaker: name }, stateOf(breaker));
      },
    });
    this.events = new Counter({
      name: 'circuit_breaker_events_total',
      help: 'Breaker events',
      labelNames: ['breaker', 'event'] as const,
      registers: [metrics.registry],
    });
    health.add({
      name: 'circuitBreakers',
      dependency: 'breakers',
      check: async () => {
        const open = [...this.breakers].filter(([, b]) => b.breaker.opened);
        const states = Object.fromEntries(
          [...this.breakers].map(([n, b]) => [n, b.breaker.opened ? 'open' : b.breaker.halfOpen ? 'half-open' : 'closed']),
        );
        if (open.some(([, b]) => b.critical)) return { status: 'down', ...states };
        return { status: open.length ? 'degraded' : 'up', ...states };
      },
      // from the states the check answered, so the summary and the details agree
      byDependency: (result) => {
        const by: Record<string, CheckStatus> = {};
        for (const [name, b] of this.breakers) {
          const state = result[name];
          if (state === undefined) continue;
          const s: CheckStatus = state === 'open' ? (b.critical ? 'down' : 'degraded') : 'up';
          by[b.dependency] = worst(by[b.dependency], s);
        }
        return by;
      },
    });
  }

  /** The breaker for `name`, created on first use around `fn`. */
  get<A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>, opts: BreakerOptions): CircuitBreaker<A, R> {
    const existing = this.breakers.get(name);
    if (existing) return existing.breaker as unknown as CircuitBreaker<A, R>;
    const breaker = new CircuitBreaker(fn, {
      timeout: opts.timeoutMs,
      errorThresholdPercentage: opts.errorThresholdPercentage ?? DEFAULT_BREAKER_SETTINGS.errorThresholdPercentage,
      resetTimeout: opts.resetTimeoutMs ?? DEFAULT_BREAKER_SETTINGS.resetTimeoutMs,
      volumeThreshold: opts.volumeThreshold ?? DEFAULT_BREAKER_SETTINGS.volumeThreshold,
      rollingCountTimeout: 10000,
      name,
    });
    for (const ev of ['open', 'halfOpen', 'close', 'timeout', 'reject'] as const)
      (breaker as any).on(ev, () => this.events.inc({ breaker: name, event: ev }));
    this.breakers.set(name, {
      breaker: breaker as unknown as CircuitBreaker<any[], any>,
      critical: opts.critical ?? false,
      dependency: opts.dependency ?? name.split(/[.:]/)[0],
    });
    return breaker;
  }

  states(): Record<string, string> {
    return Object.fromEntries(
      [...this.breakers].map(([n, { breaker }]) => [n, breaker.opened ? 'open' : breaker.halfOpen ? 'half-open' : 'closed']),
    );
  }

  shutdown(): void {
    for (const { breaker } of this.breakers.values()) breaker.shutdown();
    this.breakers.clear();
  }
}

function stateOf(b: CircuitBreaker<any[], any>): number {
  return b.opened ? STATE.open : b.halfOpen ? STATE.halfOpen : STATE.closed;
}
