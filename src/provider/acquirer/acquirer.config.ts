import { AcquirerProvider, acquirerProviderOf } from '../../../kernel/common/protocols/acquirer-provider';
import { defineConfig } from '../../../kernel/platform/config/config';
import { BreakerSettings, readBreakerSettings } from '../../../kernel/platform/resilience/breaker-settings';

/**
 * How the service reaches the acquirer. `ACQUIRER_PROVIDER` picks the protocol of the card edge
 * (`generic`, the default, or `adyen`; `service` is accepted for `generic`): read here and
 * nowhere else in the service. The rest configures the generic protocol. `ACQUIRER_URL` unset means the sandbox app's
 * `/sandbox/acquirer` at SANDBOX_URL.
 */
export class AcquirerConfig {
  /** The protocol of card payments, 3DS and boletos. */
  provider: AcquirerProvider;
  url: string | undefined;
  /** Sent as `X-Acquirer-Key` on every call to the acquirer. */
  apiKey: string;
  /** HMAC-SHA256 key of the acquirer's status notifications (`POST /provider/acquirer-events`). */
  eventsSecret: string;
  /** Accepted age of a notification's timestamp (replay window). */
  eventsToleranceSeconds: number;
  /** How a kept notification's application is retried on the job queue before it is dead (ACQUIRER_EVENTS_MAX_ATTEMPTS, _RETRY_BASE_MS). */
  inbox: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
  timeoutMs: number;
  /** Re-asks of a call whose answer was lost, with the same idempotency key (default one, at once). */
  retryDelaysMs: number[];
  /** No re-ask starts past this long since the call began: someone waits on every acquirer call. */
  deadlineMs: number;
  /** The acquirer's breakers (`acquirer.*`): ACQUIRER_BREAKER_RESET_MS, _ERROR_THRESHOLD_PERCENT, _VOLUME_THRESHOLD. */
  breaker: BreakerSettings;
}

export const acquirerConfig = defineConfig(AcquirerConfig, (env) => {
  const delays = env.list('ACQUIRER_RETRY_DELAYS_MS', ['0']);
  const retryDelaysMs = delays.map(Number);
  if (retryDelaysMs.some((n) => !Number.isInteger(n) || n < 0 || n > 60000)) {
    env.problems.push(`ACQUIRER_RETRY_DELAYS_MS must be a comma-separated list of integers 0–60000, got "${delays.join(',')}"`);
  }
  const provider = acquirerProviderOf(env.raw('ACQUIRER_PROVIDER'));
  if (!provider) env.problems.push(`ACQUIRER_PROVIDER must be generic or adyen, got "${env.raw('ACQUIRER_PROVIDER')}"`);
  return {
    provider: provider ?? 'generic',
    url: env.url('ACQUIRER_URL'),
    apiKey: env.secret('ACQUIRER_API_KEY', { minLength: 24 }),
    eventsSecret: env.secret('ACQUIRER_EVENTS_SECRET', { minLength: 24 }),
    eventsToleranceSeconds: env.int('ACQUIRER_EVENTS_TOLERANCE_SECONDS', 300, 10, 86400),
    inbox: {
      maxAttempts: env.int('ACQUIRER_EVENTS_MAX_ATTEMPTS', 8, 1, 100),
      baseDelayMs: env.int('ACQUIRER_EVENTS_RETRY_BASE_MS', 5000, 10, 3_600_000),
      maxDelayMs: 3_600_000,
    },
    timeoutMs: env.int('ACQUIRER_TIMEOUT_MS', 5000, 100, 60000),
    retryDelaysMs,
    deadlineMs: env.int('ACQUIRER_DEADLINE_MS', 3000, 100, 60000),
    breaker: readBreakerSettings(env, 'ACQUIRER'),
  };
});
