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
}

export const refundsConfig = defineConfig(RefundsConfig, (env) => {
  const v = env.str('REFUND_PLATFORM_FEE', 'keep');
  if (v !== 'keep' && v !== 'return') env.problems.push('REFUND_PLATFORM_FEE must be keep or return');
  return { platformFee: v === 'return' ? 'return' : 'keep' };
});
