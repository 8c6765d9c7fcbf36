import { defineConfig } from '../../kernel/platform/config/config';
import { BreakerSettings, readBreakerSettings } from '../../kernel/platform/resilience/breaker-settings';

/** Configuration of 3DS authentication. */
export class ThreeDsConfig {
  /** Base URL of the 3DS server API; unset = the sandbox app's /sandbox/three-ds at SANDBOX_URL. */
  serverUrl: string | undefined;
  timeoutMs: number;
  /** Backoff of idempotent 3DS server calls (the spec's 1 s, 3 s, 9 s by default). */
  retryDelaysMs: number[];
  /** Life of the token answered by POST /v1/acquiring/payments/initialize. */
  authenticationTtlMinutes: number;
  /** The 3DS server's breakers (`threeDs.*`): THREE_DS_BREAKER_RESET_MS, _ERROR_THRESHOLD_PERCENT, _VOLUME_THRESHOLD. */
  breaker: BreakerSettings;
}

export const threeDsConfig = defineConfig(ThreeDsConfig, (env) => {
  const delays = env.list('THREE_DS_RETRY_DELAYS_MS', ['1000', '3000', '9000']);
  const retryDelaysMs = delays.map(Number);
  if (retryDelaysMs.some((n) => !Number.isInteger(n) || n < 0 || n > 60000)) {
    env.problems.push(`THREE_DS_RETRY_DELAYS_MS must be a comma-separated list of integers 0–60000, got "${delays.join(',')}"`);
  }
  return {
    serverUrl: env.url('THREE_DS_SERVER_URL'),
    timeoutMs: env.int('THREE_DS_TIMEOUT_MS', 5000, 100, 60000),
    retryDelaysMs,
    authenticationTtlMinutes: env.int('THREE_DS_AUTHENTICATION_TTL_MINUTES', 30, 5, 24 * 60),
    breaker: readBreakerSettings(env, 'THREE_DS'),
  };
});
