/**
 * A card dispute's state, derived from the stages the acquirer reported (in Brazil Adyen sends no
 * `disputeStatus`, only the sequence of event codes). Pure: the stages are kept as they came, and
 * the state is always recomputed from all of them in the order the scheme played them, so a
 * duplicate or out-of-order notification gives the same answer.
 */
import type { CardDisputeStage } from '../../../kernel/common/protocols/acquirer-refunds';

export const DISPUTE_STATUSES = ['INQUIRY', 'NEEDS_RESPONSE', 'UNDER_REVIEW', 'WON', 'LOST'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export interface DisputeStageSeen {
  stage: CardDisputeStage;
  /** When the acquirer says it happened (ISO). */
  at: string;
  amountCents: number;
}

/** Each stage: the order a scheme plays them in, the status it leads to, and whether the money is held from the merchant after it. */
export const DISPUTE_STAGES: Readonly<Record<CardDisputeStage, { rank: number; status: DisputeStatus; held: boolean }>> = {
  REQUEST_FOR_INFORMATION: { rank: 0, status: 'INQUIRY', held: false },
  NOTIFICATION_OF_CHARGEBACK: { rank: 1, status: 'NEEDS_RESPONSE', held: true },
  CHARGEBACK: { rank: 2, status: 'NEEDS_RESPONSE', held: true },
  INFORMATION_SUPPLIED: { rank: 3, status: 'UNDER_REVIEW', held: true },
  DISPUTE_DEFENSE_PERIOD_ENDED: { rank: 4, status: 'LOST', held: true },
  CHARGEBACK_REVERSED: { rank: 5, status: 'WON', held: false },
  SECOND_CHARGEBACK: { rank: 6, status: 'LOST', held: true },
  PREARBITRATION_WON: { rank: 7, status: 'WON', held: false },
  PREARBITRATION_LOST: { rank: 7, status: 'LOST', held: true },
};

export interface DisputeState {
  /** The stage that decides the state (the last in the scheme's order). */
  stage: CardDisputeStage;
  status: DisputeStatus;
  /** What the merchant does not have while the dispute stands: nothing, or the disputed amount. */
  heldCents: number;
  amountCents: number;
}

/** Adds a stage unless it was already seen (same stage, same time). */
export function withStage(seen: readonly DisputeStageSeen[], s: DisputeStageSeen): DisputeStageSeen[] {
  return seen.some((x) => x.stage === s.stage && x.at === s.at) ? [...seen] : [...seen, s];
}

/** The state after every stage seen; null for none. */
export function disputeState(seen: readonly DisputeStageSeen[]): DisputeState | null {
  if (!seen.length) return null;
  const ordered = [...seen].sort((a, b) => DISPUTE_STAGES[a.stage].rank - DISPUTE_STAGES[b.stage].rank || a.at.localeCompare(b.at));
  const last = ordered[ordered.length - 1];
  const amountCents = Math.max(...ordered.map((s) => s.amountCents));
  const rule = DISPUTE_STAGES[last.stage];
  return { stage: last.stage, status: rule.status, heldCents: rule.held ? amountCents : 0, amountCents };
}
