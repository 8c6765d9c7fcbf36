import { sandboxUrlOf } from '../sandbox-url.config';
import { defineConfig } from '../../../kernel/platform/config/config';
import { BreakerSettings, readBreakerSettings } from '../../../kernel/platform/resilience/breaker-settings';

/** How the service reaches its banking provider and how the provider's events are proven. */
export class BankProviderConfig {
  /**
   * Base URL of the provider's API. Unset: the service's own sandbox bank, reached over HTTP at
   * the address the server actually listens on (`http://127.0.0.1:<port>/sandbox/bank`).
   */
  url: string | undefined;
  /** Shared secret sent to the provider on every call (header `X-Provider-Key`). */
  apiKey: string;
  /** Shared secret of the HMAC-SHA256 the provider puts on each event it POSTs to `/provider/events`. */
  eventsSecret: string;
  timeoutMs: number;
  /** Waits before each retry of an idempotent call (the spec's 1 s, 3 s, 9 s by default). */
  retryDelaysMs: number[];
  /** The bank's breakers (one per operation, `bank.*` and `psp.*`): PROVIDER_BREAKER_RESET_MS, _ERROR_THRESHOLD_PERCENT, _VOLUME_THRESHOLD. */
  breaker: BreakerSettings;
}

export const bankProviderConfig = defineConfig(BankProviderConfig, (env) => {
  const url = env.url('PROVIDER_URL');
  if (!url && !sandboxUrlOf(env)) {
    env.problems.push('PROVIDER_URL is required when no sandbox is configured (SANDBOX_URL): the default provider is the sandbox bank');
  }
  const delays = env.list('PROVIDER_RETRY_DELAYS_MS', ['1000', '3000', '9000']);
  const retryDelaysMs: number[] = [];
  for (const d of delays) {
    if (!/^\d+$/.test(d) || Number(d) > 60000)
      env.problems.push(`PROVIDER_RETRY_DELAYS_MS entries must be integers 0..60000 (ms), got "${d}"`);
    else retryDelaysMs.push(Number(d));
  }
  return {
    url,
    apiKey: env.secret('PROVIDER_API_KEY', { minLength: 24 }),
    eventsSecret: env.secret('PROVIDER_EVENTS_SECRET', { minLength: 24 }),
    timeoutMs: env.int('PROVIDER_TIMEOUT_MS', 5000, 50, 60000),
    retryDelaysMs,
    breaker: readBreakerSettings(env, 'PROVIDER'),
  };
});
