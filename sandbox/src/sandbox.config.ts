import { defineConfig } from '../../kernel/platform/config/config';
import type { EnvReader } from '../../kernel/platform/config/env';

/**
 * The sandbox's one rule for being on: SANDBOX_ENABLED, on by default (the sandbox app runs only
 * where someone started it, in production mode too: a staging environment). Every part (bank,
 * PSP, acquirer and its Adyen face, 3DS server) asks this; the 3DS server alone may be turned off
 * on its own (SANDBOX_THREE_DS_ENABLED).
 */
export function sandboxEnabled(env: EnvReader): boolean {
  return env.bool('SANDBOX_ENABLED', true);
}

export class SandboxConfig {
  /** On by default outside production; in production only when SANDBOX_ENABLED=true. */
  enabled: boolean;
  /** Duplicate and reorder the events the sandbox bank sends (SANDBOX_CHAOS=true). */
  chaos: boolean;
  chaosSeed: number;
  /** Days of the (test) clock a payer has to authorize a recurrence. */
  authorizationWindowDays: number;
  /** How often the sandbox bank settles on its own (real time); 0: only when the test clock advances. */
  tickMs: number;
  /** Origin put in the pages' URLs (authorizationUrl). Unset: the origin the provider call came in on. */
  publicUrl: string | undefined;
  /**
   * The service's origin (SANDBOX_SERVICE_URL, default http://127.0.0.1:3000, what `npm start`
   * runs): where the bank POSTs its events, the acquirer its notifications, the Adyen face its
   * webhooks, and the test clock its days.
   */
  serviceUrl: string;
  /** TEST_CLOCK_SECRET: what the service's test clock route asks of its caller. */
  testClockSecret: string;
  /** SANDBOX_CLOCK_DRIVES_SERVICE (default true): the test clock moves the service's time too; off when the sandbox runs alone. */
  clockDrivesService: boolean;
  /** The other side of PROVIDER_API_KEY / PROVIDER_EVENTS_SECRET (the service's provider config). */
  apiKey: string;
  eventsSecret: string;
  /** The Pix limits the sandbox bank answers for every account (cents). */
  pixLimits: { perTransaction: number; daytime: number; nighttime: number };
}

export const sandboxConfig = defineConfig(SandboxConfig, (env) => ({
  enabled: sandboxEnabled(env),
  chaos: env.bool('SANDBOX_CHAOS', false),
  chaosSeed: env.int('SANDBOX_CHAOS_SEED', 42, 0, 2 ** 31 - 1),
  authorizationWindowDays: env.int('SANDBOX_AUTHORIZATION_WINDOW_DAYS', 3, 0, 60),
  tickMs: env.int('SANDBOX_BANK_TICK_MS', 60000, 0, 86400000),
  publicUrl: env.url('SANDBOX_PUBLIC_URL') ?? (env.raw('PUBLIC_URL') ? env.url('PUBLIC_URL') : undefined),
  serviceUrl: (env.url('SANDBOX_SERVICE_URL') ?? 'http://127.0.0.1:3000').replace(/\/+$/, ''),
  testClockSecret: env.secret('TEST_CLOCK_SECRET', { minLength: 24 }),
  clockDrivesService: env.bool('SANDBOX_CLOCK_DRIVES_SERVICE', true),
  apiKey: env.secret('PROVIDER_API_KEY', { minLength: 24 }),
  eventsSecret: env.secret('PROVIDER_EVENTS_SECRET', { minLength: 24 }),
  pixLimits: {
    perTransaction: env.int('SANDBOX_PIX_LIMIT_PER_TRANSACTION_CENTS', 1_000_000, 1),
    daytime: env.int('SANDBOX_PIX_LIMIT_DAYTIME_CENTS', 5_000_000, 1),
    nighttime: env.int('SANDBOX_PIX_LIMIT_NIGHTTIME_CENTS', 100_000, 1),
  },
}));
