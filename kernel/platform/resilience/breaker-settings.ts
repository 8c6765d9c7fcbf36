import type { EnvReader } from '../config/env';

/** How one edge's breakers trip and recover (the same for every operation of that edge). */
export interface BreakerSettings {
  /** How long an open breaker waits before letting one probe through (half-open). */
  resetTimeoutMs: number;
  /** Share of failed calls in the 10 s window that opens the breaker. */
  errorThresholdPercentage: number;
  /** Fewest calls in the window before the breaker may open at all. */
  volumeThreshold: number;
}

/** What the edges used before their breakers were configurable; the defaults stay those. */
export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = { resetTimeoutMs: 10000, errorThresholdPercentage: 50, volumeThreshold: 5 };

/**
 * Reads `<PREFIX>_BREAKER_RESET_MS`, `<PREFIX>_BREAKER_ERROR_THRESHOLD_PERCENT` and
 * `<PREFIX>_BREAKER_VOLUME_THRESHOLD` (e.g. PROVIDER, ACQUIRER, THREE_DS); a bad value is a
 * boot problem like any other variable's.
 */
export function readBreakerSettings(env: EnvReader, prefix: string, defaults = DEFAULT_BREAKER_SETTINGS): BreakerSettings {
  return {
    resetTimeoutMs: env.int(`${prefix}_BREAKER_RESET_MS`, defaults.resetTimeoutMs, 50, 3600000),
    errorThresholdPercentage: env.int(`${prefix}_BREAKER_ERROR_THRESHOLD_PERCENT`, defaults.errorThresholdPercentage, 1, 100),
    volumeThreshold: env.int(`${prefix}_BREAKER_VOLUME_THRESHOLD`, defaults.volumeThreshold, 1, 1000),
  };
}
