import type { AcquirerNotification } from '../../../kernel/common/protocols/acquirer-events';
import { acquirerEventRejection, isAcquirerEventId } from './acquirer-event-checks';

const event = (over: Partial<AcquirerNotification> = {}, data: Record<string, unknown> = {}): AcquirerNotification =>
  ({
    eventId: '5f0c1e0a-7d35-4b8e-9a7c-2b8f1d0e6a11',
    type: 'pix_charge.updated',
    occurredAt: '2026-12-07T10:00:00.000Z',
    ...over,
    data: {
      transactionId: '0f9a1b2c-3d4e-4f50-8a6b-7c8d9e0f1a2b',
      merchantId: 'mer_1',
      acquirerId: 'tx1',
      status: 'PAID',
      amountCents: 700,
      ...data,
    },
  }) as AcquirerNotification;

const dispute = { acquirerTransactionId: 'ctx_1', status: 'CHARGEBACK', reasonCode: '10.4', at: '2026-12-07T10:00:00Z' };

describe('the checks of a generic acquirer notification at the edge', () => {
  it('passes what the sandbox acquirer sends', () => {
    expect(acquirerEventRejection(event({}, { paidAt: '2026-12-07T10:00:00Z', paidVia: 'PIX' }))).toBeNull();
    expect(
      acquirerEventRejection(event({ type: 'card_refund.updated' }, { acquirerTransactionId: 'ctx_1', status: 'SUCCEEDED' })),
    ).toBeNull();
    expect(acquirerEventRejection(event({ type: 'card_dispute.updated' }, { ...dispute, defendBy: '2026-12-20T10:00:00Z' }))).toBeNull();
  });

  it.each([
    ['an unknown type', event({ type: 'charge.updated' as never }), /type/],
    ['a date that is none', event({ occurredAt: 'yesterday' }), /occurredAt/],
    ['a transaction id with spaces', event({}, { transactionId: 'a b' }), /transactionId/],
    ['a negative amount', event({}, { amountCents: -1 }), /amountCents/],
    ['a fractional amount', event({}, { amountCents: 1.5 }), /amountCents/],
    ['a paidAt that is not a date', event({}, { paidAt: 'now' }), /paidAt/],
    [
      'a refund outcome that is none',
      event({ type: 'card_refund.updated' }, { acquirerTransactionId: 'ctx_1', status: 'PENDING' }),
      /refund/,
    ],
    ['a dispute stage that is none', event({ type: 'card_dispute.updated' }, { ...dispute, status: 'WON' }), /dispute stage/],
    ['a defence deadline that is not a date', event({ type: 'card_dispute.updated' }, { ...dispute, defendBy: 'soon' }), /defendBy/],
  ])('rejects %s', (_, e, reason) => {
    expect(acquirerEventRejection(e)).toMatch(reason);
  });

  it('takes an eventId that is printable and short', () => {
    expect(isAcquirerEventId('5f0c1e0a-7d35-4b8e-9a7c-2b8f1d0e6a11')).toBe(true);
    expect(isAcquirerEventId('a b')).toBe(false);
    expect(isAcquirerEventId('x'.repeat(129))).toBe(false);
    expect(isAcquirerEventId(7)).toBe(false);
  });
});
