import { defineConfig } from '../platform/config/config';

export class PixAutomaticConfig {
  /** Days between a billing's creation (and sending) and its adjusted due date (Central Bank: 2 to 10). */
  leadDays: number;
  /** How often the billing engine runs on its own; 0 disables the timer (the sandbox clock still runs it). */
  engineIntervalMs: number;
  /** Recurrences claimed per transaction, and billings per provider call. */
  engineBatchSize: number;
  /** Generation transactions an engine run keeps going side by side (each needs a pool connection). */
  engineConcurrency: number;
  /** First wait before a SEND_FAILED billing is retried; each next wait is 3 times longer. */
  retryBaseMs: number;
  retryMaxMs: number;
}

export const pixAutomaticConfig = defineConfig(PixAutomaticConfig, (env) => ({
  leadDays: env.int('BILLING_LEAD_DAYS', 3, 2, 10),
  engineIntervalMs: env.int('BILLING_ENGINE_INTERVAL_MS', 60000, 0, 86400000),
  engineBatchSize: env.int('BILLING_ENGINE_BATCH_SIZE', 500, 1, 5000),
  engineConcurrency: env.int('BILLING_ENGINE_CONCURRENCY', 4, 1, 32),
  retryBaseMs: env.int('BILLING_RETRY_BASE_MS', 60000, 10, 86400000),
  retryMaxMs: env.int('BILLING_RETRY_MAX_MS', 6 * 3600000, 10, 7 * 86400000),
}));
