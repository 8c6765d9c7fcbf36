import { defineConfig } from '../platform/config/config';

export class GatewayConfig {
  /** Shared rate-limit counters; unset: each replica counts alone (in-process). */
  redisUrl: string | undefined;
  redisCommandTimeoutMs: number;
  /** How stale a replica's copy of a tenant record (allow-list, rate limit, status) may be. */
  tenantCacheTtlMs: number;
  rateLimitWindowSeconds: number;
  /** Namespace of this deployment's keys in a Redis shared with others. */
  redisKeyPrefix: string;
  /** Setup calls (key upload, challenge, verify, credentials) per minute per tenant. */
  setupRateLimitPerMinute: number;
  /** Pix limits answered by GET /v1/banking/accounts/{id}/limits until the sandbox bank exists (cents). */
  pixLimits: { perTransaction: number; daytime: number; nighttime: number };
}

export const gatewayConfig = defineConfig(GatewayConfig, (env) => ({
  redisUrl: env.url('REDIS_URL', undefined, ['redis:', 'rediss:']),
  redisCommandTimeoutMs: env.int('REDIS_COMMAND_TIMEOUT_MS', 250, 10, 10000),
  redisKeyPrefix: env.str('REDIS_KEY_PREFIX', 'pp:'),
  tenantCacheTtlMs: env.int('TENANT_CACHE_TTL_MS', 1000, 0, 2000),
  rateLimitWindowSeconds: 60,
  setupRateLimitPerMinute: env.int('SETUP_RATE_LIMIT_PER_MINUTE', 30, 1, 100000),
  pixLimits: {
    perTransaction: env.int('PIX_LIMIT_PER_TRANSACTION_CENTS', 1_000_000, 1),
    daytime: env.int('PIX_LIMIT_DAYTIME_CENTS', 5_000_000, 1),
    nighttime: env.int('PIX_LIMIT_NIGHTTIME_CENTS', 100_000, 1),
  },
}));
