import { BillingStatus } from './billing.state-machine';
import { refusedBillingEvent, refusedRecurrenceEvent } from './event-order';
import { RecurrenceStatus } from './recurrence.state-machine';

describe('fate of a refused provider event', () => {
  it('parks a billing event that arrives before its predecessor', () => {
    expect(refusedBillingEvent(BillingStatus.SENT, BillingStatus.COMPLETED)).toBe('PARKED');
    expect(refusedBillingEvent(BillingStatus.PENDING_SEND, BillingStatus.ACTIVE)).toBe('PARKED');
    expect(refusedBillingEvent(BillingStatus.SEND_FAILED, BillingStatus.CANCELLED_PAYER)).toBe('PARKED');
  });

  it('calls late an event whose destination is behind or beside a terminal state', () => {
    expect(refusedBillingEvent(BillingStatus.COMPLETED, BillingStatus.ACTIVE)).toBe('LATE');
    expect(refusedBillingEvent(BillingStatus.COMPLETED, BillingStatus.REJECTED)).toBe('LATE');
    expect(refusedRecurrenceEvent(RecurrenceStatus.ACTIVE, RecurrenceStatus.ACCEPTED)).toBe('LATE');
    expect(refusedRecurrenceEvent(RecurrenceStatus.CANCELLED_PAYER, RecurrenceStatus.EXPIRED)).toBe('LATE');
  });

  it('parks a payer cancel that overtook the acceptance', () => {
    expect(refusedRecurrenceEvent(RecurrenceStatus.PENDING, RecurrenceStatus.CANCELLED_PAYER)).toBe('PARKED');
  });
});
