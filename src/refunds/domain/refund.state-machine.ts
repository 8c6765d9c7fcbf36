/**
 * A refund's life, on every rail: created PENDING (its amount reserved against the payment), then
 * the provider's verdict. A refund the provider reported done can still fail later (Adyen's
 * REFUND_FAILED, a scheme that bounced it) or be reversed (REFUNDED_REVERSED: the money came back
 * to the merchant); either gives the amount back to what can be refunded. Persisted with
 * `UPDATE … WHERE status = ANY(sourcesOf(trigger))`, so a duplicate or late notification changes
 * nothing twice.
 */
import { stateMachineOfTable } from '../../../kernel/platform/state-machine/state-machine';

export const REFUND_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'REVERSED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const REFUND_TRIGGERS = ['succeeded', 'failed', 'reversed'] as const;
export type RefundTrigger = (typeof REFUND_TRIGGERS)[number];

const TABLE: Readonly<Record<RefundStatus, Partial<Record<RefundTrigger, RefundStatus>>>> = {
  // a reversal can overtake the success it undoes (notifications come in any order): still REVERSED
  PENDING: { succeeded: 'SUCCEEDED', failed: 'FAILED', reversed: 'REVERSED' },
  SUCCEEDED: { failed: 'FAILED', reversed: 'REVERSED' },
  FAILED: {},
  REVERSED: {},
};

export const REFUND_MACHINE = stateMachineOfTable('refund', REFUND_STATUSES, REFUND_TRIGGERS, TABLE);

export function sourcesOf(trigger: RefundTrigger): RefundStatus[] {
  return REFUND_MACHINE.sourcesOf(trigger);
}

/** Whether a refund in this status still holds its amount against the payment. */
export function holdsAmount(status: RefundStatus): boolean {
  return status === 'PENDING' || status === 'SUCCEEDED';
}

/** The reasons a tenant may give, as Stripe's and Adyen's lists meet. */
export const REFUND_REASONS = ['requested_by_customer', 'fraudulent', 'duplicate', 'product_returned', 'other'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];
