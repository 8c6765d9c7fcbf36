import { defineConfig } from '../config/config';

/**
 * The test clock, like Stripe's: time moved forward by the sandbox app, a day at a time. On by
 * default outside production (TEST_CLOCK_ENABLED); its caller proves itself with
 * TEST_CLOCK_SECRET, which the sandbox app reads too (the development secret outside production).
 */
export class TestClockConfig {
  enabled: boolean;
  secret: string;
}

export const testClockConfig = defineConfig(TestClockConfig, (env) => {
  const enabled = env.bool('TEST_CLOCK_ENABLED', env.runtime !== 'production');
  return { enabled, secret: enabled ? env.secret('TEST_CLOCK_SECRET', { minLength: 24 }) : '' };
});
