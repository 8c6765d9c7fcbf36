import { Injectable, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppLogger } from '../../../kernel/platform/logging/app-logger';
import { CheckStatus, HealthRegistry } from '../../../kernel/platform/health/health-registry';
import { GatewayConfig } from '../gateway.config';
import { MemoryCounterStore } from './memory-counter.store';
import { RedisCounterStore } from './redis-counter.store';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
}

/**
 * The `RateLimit-*` (and on refusal `Retry-After`) headers of a decision. Named in lower case, as
 * Fastify and Node send them anyway: a mixed-case name is lower-cased into a new string (and
 * hashed again) on every request.
 */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  const h: Record<string, string> = {
    'ratelimit-limit': String(d.limit),
    'ratelimit-remaining': String(d.remaining),
    'ratelimit-reset': String(d.resetSeconds),
  };
  if (!d.allowed) h['retry-after'] = String(d.resetSeconds);
  return h;
}

/**
 * Fixed one-minute windows. With REDIS_URL the count is shared by every replica; without it,
 * or while Redis is unreachable, each replica counts in-process (fail open per replica: the
 * gateway keeps serving, the outage is logged once and readiness says `degraded`).
 */
@Injectable()
export class RateLimiter implements OnModuleInit, OnApplicationShutdown {
  private readonly memory = new MemoryCounterStore();
  private readonly redis: RedisCounterStore | null;
  private readonly windowMs: number;
  private degradedSince: string | null = null;

  constructor(
    config: GatewayConfig,
    health: HealthRegistry,
    private readonly logger: AppLogger,
  ) {
    this.windowMs = config.rateLimitWindowSeconds * 1000;
    this.redis = config.redisUrl
      ? new RedisCounterStore(config.redisUrl, config.redisCommandTimeoutMs, config.redisKeyPrefix, (up, reason) =>
          this.onRedis(up, reason),
        )
      : null;
    health.add({
      name: 'rateLimitStore',
      dependency: 'redis',
      check: async () => this.status(),
      byDependency: (r): Record<string, CheckStatus> => (this.redis ? { redis: r.status } : {}), // no REDIS_URL: no Redis to report on
    });
  }

  async onModuleInit(): Promise<void> {
    if (this.redis) {
      await this.redis.connect(1500);
      if (!this.redis.isUp()) this.onRedis(false, 'not reachable at start');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close();
  }

  /** Counts one request against `key` and decides. Synchronous with the in-process store. */
  hit(key: string, limit: number): RateDecision | Promise<RateDecision> {
    const now = Date.now();
    const window = Math.floor(now / this.windowMs);
    const resetSeconds = Math.max(1, Math.ceil(((window + 1) * this.windowMs - now) / 1000));
    if (this.redis && this.redis.isUp()) {
      return this.redis.incr(key, window, this.windowMs).then(
        (n) => decide(n, limit, resetSeconds),
        (e: Error) => {
          this.onRedis(false, e.message);
          return decide(this.memory.incr(key, window), limit, resetSeconds);
        },
      );
    }
    return decide(this.memory.incr(key, window), limit, resetSeconds);
  }

  status(): { status: 'up' | 'degraded'; store: 'redis' | 'memory'; since?: string; reason?: string } {
    if (!this.redis) return { status: 'up', store: 'memory' };
    if (this.degradedSince)
      return { status: 'degraded', store: 'memory', since: this.degradedSince, reason: 'Redis unreachable: counting per replica' };
    return { status: 'up', store: 'redis' };
  }

  private onRedis(up: boolean, reason: string): void {
    if (!up && !this.degradedSince) {
      this.degradedSince = new Date().toISOString();
      this.logger.warn(`Redis unreachable (${reason}); rate limits now counted per replica in-process until it returns`, 'RateLimiter');
    } else if (up && this.degradedSince) {
      this.degradedSince = null;
      this.logger.log('Redis reachable again; rate limits shared across replicas', 'RateLimiter');
    }
  }
}

function decide(n: number, limit: number, resetSeconds: number): RateDecision {
  return { allowed: n <= limit, limit, remaining: Math.max(0, limit - n), resetSeconds };
}
