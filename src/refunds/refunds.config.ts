import { defineConfig } from '../../kernel/platform/config/config';
import { PlatformFeeOnRefund } from './domain/split-reversal';

/** Configuration of refunds. */
export class RefundsConfig {
  /**
   * `REFUND_PLATFORM_FEE`: what a refund does to the platform's fee on a link payment. `keep` (the
   * default, as Stripe keeps its fee on refunds): the merchants bear the whole refund; `return`:
   * the fee goes back in proportion to the refund (domain/split-reversal.ts).
   */
  platformFee: PlatformFeeOnRefund;
  /**
   * The re-send job's policy on the job queue: `REFUND_SEND_MAX_ATTEMPTS` tries (8) after the first
   * send, waiting `REFUND_SEND_RETRY_BASE_MS` (30 s), then three times the wait before, at most an
   * hour; then the job is dead (the refund stays PENDING) until an operator replays it.
   */
  send: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
}

export const refundsConfig = defineConfig(RefundsConfig, (env) => {
  const v = env.str('REFUND_PLATFORM_FEE', 'keep');
  if (v !== 'keep' && v !== 'return') env.problems.push('REFUND_PLATFORM_FEE must be keep or return');
  return {
    platformFee: v === 'return' ? 'return' : 'keep',
    send: {
      maxAttempts: env.int('REFUND_SEND_MAX_ATTEMPTS', 8, 1, 100),
      baseDelayMs: env.int('REFUND_SEND_RETRY_BASE_MS', 30_000, 10, 3_600_000),
      maxDelayMs: 3_600_000,
    },
  };
});
