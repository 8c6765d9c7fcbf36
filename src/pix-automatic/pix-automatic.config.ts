import { defineConfig } from '../../kernel/platform/config/config';
import { SendWindowDays } from './engine/send-window';

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
  /**
   * With BANK_PROVIDER=pix-api, the days before the adjusted due date between which a billing may
   * reach the PSP (PIX_API_BILLING_SEND_MAX_DAYS, _MIN_DAYS: the Central Bank's 10 and 2); null with
   * the `service` provider, which takes a billing any time up to its due date.
   */
  sendWindow: SendWindowDays | null;
  /** Fewest days before its due date a cycle may still be created and sent (2; the window's minimum on pix-api). */
  minLeadDays: number;
}

/** The Central Bank's minimum: a cycle with fewer days left is skipped, never sent late. */
const MIN_LEAD_DAYS = 2;

export const pixAutomaticConfig = defineConfig(PixAutomaticConfig, (env) => {
  const leadDays = env.int('BILLING_LEAD_DAYS', 3, 2, 10);
  const pixApi = env.str('BANK_PROVIDER', 'service') === 'pix-api';
  const minDays = env.int('PIX_API_BILLING_SEND_MIN_DAYS', 2, 0, 60);
  const maxDays = env.int('PIX_API_BILLING_SEND_MAX_DAYS', 10, 0, 60);
  if (pixApi && minDays > maxDays)
    env.problems.push(`PIX_API_BILLING_SEND_MIN_DAYS (${minDays}) must not exceed PIX_API_BILLING_SEND_MAX_DAYS (${maxDays})`);
  if (pixApi && (leadDays < minDays || leadDays > maxDays)) {
    env.problems.push(
      `BILLING_LEAD_DAYS (${leadDays}) must lie in the PSP's send window, PIX_API_BILLING_SEND_MIN_DAYS..MAX_DAYS (${minDays}..${maxDays})`,
    );
  }
  return {
    leadDays,
    engineIntervalMs: env.int('BILLING_ENGINE_INTERVAL_MS', 60000, 0, 86400000),
    engineBatchSize: env.int('BILLING_ENGINE_BATCH_SIZE', 500, 1, 5000),
    engineConcurrency: env.int('BILLING_ENGINE_CONCURRENCY', 4, 1, 32),
    retryBaseMs: env.int('BILLING_RETRY_BASE_MS', 60000, 10, 86400000),
    retryMaxMs: env.int('BILLING_RETRY_MAX_MS', 6 * 3600000, 10, 7 * 86400000),
    sendWindow: pixApi ? { minDays, maxDays } : null,
    minLeadDays: pixApi ? minDays : MIN_LEAD_DAYS,
  };
});
