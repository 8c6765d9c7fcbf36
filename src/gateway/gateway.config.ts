import { defineConfig } from '../../kernel/platform/config/config';

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
  /** Payment attempts on the public hosted checkout per minute per payer IP (card-testing brake). */
  checkoutRateLimitPerMinute: number;
  /**
   * Requests refused for their token (401) per minute per caller IP; past it they are refused with
   * 429 before the token is read, so a flood of bad tokens is not free for the caller.
   */
  refusedTokensPerMinutePerIp: number;
  /** How long a replica reuses the bank's answer for an account's Pix limits. */
  accountLimitsCacheMs: number;
  /** How long a replica may still answer the last known Pix limits while the bank is unreachable. */
  accountLimitsStaleMs: number;
}

export const gatewayConfig = defineConfig(GatewayConfig, (env) => ({
  redisUrl: env.url('REDIS_URL', undefined, ['redis:', 'rediss:']),
  redisCommandTimeoutMs: env.int('REDIS_COMMAND_TIMEOUT_MS', 250, 10, 10000),
  redisKeyPrefix: env.str('REDIS_KEY_PREFIX', 'pp:'),
  tenantCacheTtlMs: env.int('TENANT_CACHE_TTL_MS', 1000, 0, 2000),
  rateLimitWindowSeconds: 60,
  setupRateLimitPerMinute: env.int('SETUP_RATE_LIMIT_PER_MINUTE', 30, 1, 100000),
  checkoutRateLimitPerMinute: env.int('CHECKOUT_RATE_LIMIT_PER_MINUTE', 20, 1, 1_000_000),
  refusedTokensPerMinutePerIp: env.int('REFUSED_TOKENS_PER_MINUTE_PER_IP', 60, 1, 10_000_000),
  accountLimitsCacheMs: env.int('ACCOUNT_LIMITS_CACHE_MS', 30_000, 0, 3_600_000),
  accountLimitsStaleMs: env.int('ACCOUNT_LIMITS_STALE_MS', 600_000, 0, 86_400_000),
}));
