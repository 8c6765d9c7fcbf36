import { defineConfig } from '../../kernel/platform/config/config';
import { deriveSecretsKey, SecretKeyRing } from './endpoints/secret-box';

/** Outbound webhooks: registration rules, the outbox worker and the delivery transport. */
export class WebhooksConfig {
  /** Run the delivery worker in this process (API-only replicas can turn it off). */
  workerEnabled: boolean;
  /** Most rows one claim statement takes. */
  batchSize: number;
  /** Deliveries in flight at once in this process. */
  concurrency: number;
  /** Deliveries in flight at once to one destination host:port, so one slow receiver cannot take every slot. */
  maxInFlightPerHost: number;
  /** Connections of the worker's own pool (claims, results, lag). */
  dbPoolSize: number;
  /** Sleep between claims when nothing is due. */
  pollIntervalMs: number;
  /** Per-attempt HTTP timeout (connect + answer). */
  timeoutMs: number;
  /** A claimed row is invisible to other workers for timeoutMs + leaseMarginMs; after that a crashed worker's rows are due again. */
  leaseMarginMs: number;
  /** Deliver to private, loopback and link-local addresses (checked at send time on the resolved address). */
  allowPrivateTargets: boolean;
  /** Registration demands https:// URLs (production). */
  requireHttps: boolean;
  /** How long the previous secret / key keeps working after a rotation (re-PUT). */
  rotationGraceMs: number;
  /** Per-host breaker: how long it stays open before a half-open probe. */
  breakerResetMs: number;
  /** Per-host breaker: fewest calls in the 10 s window before it may open. */
  breakerVolumeThreshold: number;
  /** Readiness says `degraded` when the oldest due row is older than this. */
  lagDegradedMs: number;
  /** Finished events (and their deliveries and attempts) older than this many days are deleted; 0 keeps them for ever. */
  retentionDays: number;
  /**
   * The keys of the stored signing secrets and sealing keys: WEBHOOK_SECRETS_KEY makes new boxes,
   * it and WEBHOOK_SECRETS_KEYS_PREVIOUS (comma-separated, during a rotation) open them.
   */
  secretKeys: SecretKeyRing;
}

export const webhooksConfig = defineConfig(WebhooksConfig, (env) => {
  const production = env.runtime === 'production';
  const concurrency = env.int('WEBHOOK_CONCURRENCY', 64, 1, 1000);
  const timeoutMs = env.int('WEBHOOK_TIMEOUT_MS', 10000, 100, 60000);
  const previous = env.list('WEBHOOK_SECRETS_KEYS_PREVIOUS');
  if (previous.some((k) => k.length < 32))
    env.problems.push('WEBHOOK_SECRETS_KEYS_PREVIOUS: every key must be at least 32 characters (the old WEBHOOK_SECRETS_KEY values)');
  return {
    workerEnabled: env.bool('WEBHOOK_WORKER_ENABLED', true),
    batchSize: env.int('WEBHOOK_BATCH_SIZE', 200, 1, 1000),
    concurrency,
    maxInFlightPerHost: env.int('WEBHOOK_MAX_IN_FLIGHT_PER_HOST', Math.max(1, Math.ceil(concurrency / 2)), 1, 1000),
    dbPoolSize: env.int('WEBHOOK_DB_POOL_SIZE', 4, 1, 50),
    pollIntervalMs: env.int('WEBHOOK_POLL_INTERVAL_MS', 250, 10, 60000),
    timeoutMs,
    leaseMarginMs: env.int('WEBHOOK_LEASE_MARGIN_MS', 20000, 100, 600000),
    allowPrivateTargets: env.bool('WEBHOOK_ALLOW_PRIVATE_TARGETS', !production),
    requireHttps: production,
    rotationGraceMs: env.int('WEBHOOK_ROTATION_GRACE_SECONDS', 24 * 3600, 0, 30 * 24 * 3600) * 1000,
    breakerResetMs: env.int('WEBHOOK_BREAKER_RESET_MS', 30000, 50, 3600000),
    breakerVolumeThreshold: env.int('WEBHOOK_BREAKER_VOLUME_THRESHOLD', 5, 1, 1000),
    lagDegradedMs: env.int('WEBHOOK_LAG_DEGRADED_MS', 5 * 60000, 1000, 24 * 3600000),
    retentionDays: env.int('WEBHOOK_RETENTION_DAYS', 30, 0, 3650),
    secretKeys: new SecretKeyRing([env.secret('WEBHOOK_SECRETS_KEY', { minLength: 32 }), ...previous].map(deriveSecretsKey)),
  };
});
