/**
 * What to do with a provider event that the state machine refuses from the current state
 * (pure, no I/O). The provider may deliver events out of order (BILLING_COMPLETED before
 * BILLING_ACTIVE) or late (BILLING_ACTIVE after BILLING_COMPLETED). States are ranked along
 * the life of the entity; an event whose destination lies ahead of the current state is
 * PARKED and applied once its predecessor arrives, one whose destination is behind (or the
 * entity is terminal) is LATE: recorded and ignored.
 */
import { BillingStatus } from './billing.state-machine';
import { RecurrenceStatus } from './recurrence.state-machine';

const RECURRENCE_RANK: Readonly<Record<RecurrenceStatus, number>> = {
  PENDING: 0,
  ACCEPTED: 1,
  ACTIVE: 2,
  REJECTED: 3,
  EXPIRED: 3,
  CANCELLED_RECEIVER: 3,
  CANCELLED_PAYER: 3,
};

const BILLING_RANK: Readonly<Record<BillingStatus, number>> = {
  PENDING_SEND: 0,
  SEND_FAILED: 1,
  SENT: 2,
  ACTIVE: 3,
  COMPLETED: 4,
  REJECTED: 4,
  EXPIRED: 4,
  CANCELLED_RECEIVER: 4,
  CANCELLED_PAYER: 4,
};

export type RefusedEventFate = 'PARKED' | 'LATE';

export function refusedRecurrenceEvent(current: RecurrenceStatus, target: RecurrenceStatus): RefusedEventFate {
  return RECURRENCE_RANK[target] > RECURRENCE_RANK[current] ? 'PARKED' : 'LATE';
}

export function refusedBillingEvent(current: BillingStatus, target: BillingStatus): RefusedEventFate {
  return BILLING_RANK[target] > BILLING_RANK[current] ? 'PARKED' : 'LATE';
}
