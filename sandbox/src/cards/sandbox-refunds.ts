/**
 * Refund outcomes of the sandbox acquirer, driven by the refund amount's last two cent digits
 * (the same on its `generic` face and its Adyen face). Each step is played on one tick of the
 * sandbox's clock (SANDBOX_ACQUIRER_TICK_MS, and each day the test clock advances). The table is
 * rendered in docs/guide/cards.md: keep descriptions short and factual.
 */

/** What a refund reports on a tick: a status, and the stable reason of a failure. */
export type SandboxRefundStep = 'SUCCEEDED' | 'REVERSED' | `FAILED:${SandboxRefundFailure}`;

/**
 * `refund_declined`: refused before it reached the scheme; `refund_failed_at_scheme`: the scheme
 * rejected it after it was reported successful; `refund_exceeds_captured`: the refunds' sum
 * would pass what was captured (the `generic` face refuses it at once, 422; Adyen answers
 * `received` and reports it failed).
 */
export type SandboxRefundFailure = 'refund_declined' | 'refund_failed_at_scheme' | 'refund_exceeds_captured';

export interface SandboxRefundAmount {
  /** The last two digits of the amount in cents. */
  cents: string;
  steps: readonly SandboxRefundStep[];
  description: string;
}

export const SANDBOX_REFUND_AMOUNTS: readonly SandboxRefundAmount[] = Object.freeze([
  { cents: '13', steps: ['FAILED:refund_declined'], description: 'Fails (declined).' },
  {
    cents: '14',
    steps: ['SUCCEEDED', 'FAILED:refund_failed_at_scheme'],
    description: 'Succeeds, then fails on the next tick (rejected by the scheme).',
  },
  { cents: '15', steps: ['SUCCEEDED', 'REVERSED'], description: 'Succeeds, then is reversed on the next tick.' },
]);

/** The steps a refund of this amount plays (any amount not listed succeeds on the next tick). */
export function sandboxRefundSteps(amountCents: number): readonly SandboxRefundStep[] {
  const cents = String(amountCents % 100).padStart(2, '0');
  return SANDBOX_REFUND_AMOUNTS.find((a) => a.cents === cents)?.steps ?? ['SUCCEEDED'];
}

/** A step as the status it sets and its reason. */
export function refundStepStatus(step: string): { status: 'SUCCEEDED' | 'FAILED' | 'REVERSED'; reason?: SandboxRefundFailure } {
  if (step.startsWith('FAILED:')) return { status: 'FAILED', reason: step.slice('FAILED:'.length) as SandboxRefundFailure };
  return { status: step as 'SUCCEEDED' | 'REVERSED' };
}
