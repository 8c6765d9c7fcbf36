import { chaos, seededRandom, settlementOf, variants } from './bank-rules';

describe('sandbox bank test data', () => {
  it('settles by the cents of the amount', () => {
    expect([4951, 4952, 4953, 4950, 4954, 4955, 100].map(settlementOf)).toEqual([
      'REJECTED',
      'EXPIRED',
      'CANCELLED_PAYER',
      'COMPLETED',
      'REJECTED',
      'COMPLETED',
      'COMPLETED',
    ]);
  });

  it('emits both variants unless one party acted alone', () => {
    expect(variants('BILLING_ACTIVE', 'X', 't', {}).map((e) => e.eventType)).toEqual([
      'PIX_AUTOMATIC_RECEIVER_BILLING_ACTIVE',
      'PIX_AUTOMATIC_PAYER_BILLING_ACTIVE',
    ]);
    expect(variants('RECURRENCE_CANCELED', 'X', 't', {}, 'PAYER').map((e) => e.eventType)).toEqual([
      'PIX_AUTOMATIC_PAYER_RECURRENCE_CANCELED',
    ]);
  });

  it('chaos keeps every event, adds duplicates and changes the order, reproducibly', () => {
    const items = Array.from({ length: 40 }, (_, i) => i);
    const a = chaos(items, seededRandom(7));
    expect(new Set(a)).toEqual(new Set(items));
    expect(a.length).toBeGreaterThan(items.length);
    expect(a).not.toEqual([...a].sort((x, y) => x - y));
    expect(chaos(items, seededRandom(7))).toEqual(a);
  });
});
