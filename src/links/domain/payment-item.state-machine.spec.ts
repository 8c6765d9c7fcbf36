import {
  allowedFrom,
  initialStatus,
  isInitialStatus,
  isPaid,
  isStatusOf,
  isTerminal,
  nextItemStatus,
  PAID_STATUSES,
  PAYMENT_ITEM_STATUSES,
  PAYMENT_ITEM_TRIGGERS,
  PaymentItemStateError,
  StatusOf,
  transition,
  TransactionMethod,
  TriggerOf,
} from './payment-item.state-machine';

/** Expected result of every (status, trigger) pair per method; null = refused. Written out by hand. */
const CARD: Record<StatusOf<'CARD'>, Record<TriggerOf<'CARD'>, StatusOf<'CARD'> | null>> = {
  ACCEPTED: { CAPTURE: null, VOID: 'VOIDED' },
  CAPTURED: { CAPTURE: null, VOID: 'VOIDED' },
  PREAUTH: { CAPTURE: 'CAPTURED', VOID: 'VOIDED' },
  VOIDED: { CAPTURE: null, VOID: null },
  AUTH_REJECTED: { CAPTURE: null, VOID: null },
  CHALLENGE_REJECTED: { CAPTURE: null, VOID: null },
  SETUP_REJECTED: { CAPTURE: null, VOID: null },
  FAILED: { CAPTURE: null, VOID: null },
};
const PIX: Record<StatusOf<'PIX'>, Record<TriggerOf<'PIX'>, StatusOf<'PIX'> | null>> = {
  PENDING: { CONFIRM: 'AUTHORIZED', SETTLE: null, EXPIRE: 'EXPIRED' },
  AUTHORIZED: { CONFIRM: null, SETTLE: 'SETTLED', EXPIRE: null },
  SETTLED: { CONFIRM: null, SETTLE: null, EXPIRE: null },
  EXPIRED: { CONFIRM: null, SETTLE: null, EXPIRE: null },
};
const BOLETO: Record<StatusOf<'BOLETO'>, Record<TriggerOf<'BOLETO'>, StatusOf<'BOLETO'> | null>> = {
  PENDING: { PAY: 'PAID', PAY_BY_PIX: 'PAID_PIX', EXPIRE: 'EXPIRED', CANCEL: 'CANCELED' },
  PAID: { PAY: null, PAY_BY_PIX: null, EXPIRE: null, CANCEL: null },
  PAID_PIX: { PAY: null, PAY_BY_PIX: null, EXPIRE: null, CANCEL: null },
  EXPIRED: { PAY: null, PAY_BY_PIX: null, EXPIRE: null, CANCEL: null },
  CANCELED: { PAY: null, PAY_BY_PIX: null, EXPIRE: null, CANCEL: null },
  FAILED: { PAY: null, PAY_BY_PIX: null, EXPIRE: null, CANCEL: null },
};
const EXPECTED: Record<TransactionMethod, Record<string, Record<string, string | null>>> = { CARD, PIX, BOLETO };

const pairs = (Object.keys(EXPECTED) as TransactionMethod[]).flatMap((m) =>
  Object.entries(EXPECTED[m]).flatMap(([from, row]) => Object.entries(row).map(([trigger, to]) => [m, from, trigger, to] as const)),
);

describe('payment item state machine', () => {
  it('the matrix covers every status and trigger of every method', () => {
    for (const m of ['CARD', 'PIX', 'BOLETO'] as const) {
      expect(Object.keys(EXPECTED[m]).sort()).toEqual([...PAYMENT_ITEM_STATUSES[m]].sort());
      for (const row of Object.values(EXPECTED[m])) expect(Object.keys(row).sort()).toEqual([...PAYMENT_ITEM_TRIGGERS[m]].sort());
    }
    expect(pairs).toHaveLength(8 * 2 + 4 * 3 + 6 * 4);
  });

  it.each(pairs)('%s: %s + %s -> %s', (method, from, trigger, to) => {
    const m = method as any;
    expect(nextItemStatus(m, from as any, trigger as any)).toBe(to);
    if (to === null) {
      expect(() => transition(m, from as any, trigger as any)).toThrow(PaymentItemStateError);
      try {
        transition(m, from as any, trigger as any);
      } catch (e) {
        expect((e as PaymentItemStateError).code).toBe('invalid_transition');
      }
    } else {
      expect(transition(m, from as any, trigger as any)).toBe(to);
    }
  });

  it('allowedFrom lists the matrix rows that accept each trigger', () => {
    for (const m of ['CARD', 'PIX', 'BOLETO'] as const) {
      for (const t of PAYMENT_ITEM_TRIGGERS[m]) {
        const expected = PAYMENT_ITEM_STATUSES[m].filter((s) => EXPECTED[m][s][t] !== null);
        expect(allowedFrom(m, t as any)).toEqual(expected);
      }
    }
    expect(allowedFrom('CARD', 'CAPTURE')).toEqual(['PREAUTH']);
    expect(allowedFrom('CARD', 'VOID')).toEqual(['ACCEPTED', 'CAPTURED', 'PREAUTH']);
    expect(allowedFrom('PIX', 'SETTLE')).toEqual(['AUTHORIZED']);
    expect(allowedFrom('BOLETO', 'PAY_BY_PIX')).toEqual(['PENDING']);
  });

  it('refuses statuses and triggers of another method', () => {
    expect(nextItemStatus('PIX', 'PREAUTH' as any, 'CAPTURE' as any)).toBeNull();
    expect(nextItemStatus('CARD', 'PENDING' as any, 'PAY' as any)).toBeNull();
    expect(nextItemStatus('BOLETO', 'PENDING', 'CONFIRM' as any)).toBeNull();
    expect(nextItemStatus('PIX', 'PENDING', 'constructor' as any)).toBeNull();
    expect(allowedFrom('CASH' as any, 'PAY' as any)).toEqual([]);
    expect(isStatusOf('PIX', 'PAID')).toBe(false);
    expect(isStatusOf('BOLETO', 'PAID_PIX')).toBe(true);
  });

  it('terminal statuses are those with no way out', () => {
    const terminal = (m: TransactionMethod) => (PAYMENT_ITEM_STATUSES[m] as readonly string[]).filter((s) => isTerminal(m, s as any));
    expect(terminal('CARD')).toEqual(['VOIDED', 'AUTH_REJECTED', 'CHALLENGE_REJECTED', 'SETUP_REJECTED', 'FAILED']);
    expect(terminal('PIX')).toEqual(['SETTLED', 'EXPIRED']);
    expect(terminal('BOLETO')).toEqual(['PAID', 'PAID_PIX', 'EXPIRED', 'CANCELED', 'FAILED']);
  });

  it('initial statuses', () => {
    expect(isInitialStatus('CARD', 'ACCEPTED')).toBe(true);
    expect(isInitialStatus('CARD', 'AUTH_REJECTED')).toBe(true);
    expect(isInitialStatus('CARD', 'CHALLENGE_REJECTED')).toBe(true);
    expect(isInitialStatus('CARD', 'PREAUTH')).toBe(true);
    expect(isInitialStatus('CARD', 'CAPTURED')).toBe(false);
    expect(isInitialStatus('CARD', 'VOIDED')).toBe(false);
    expect(isInitialStatus('PIX', 'PENDING')).toBe(true);
    expect(isInitialStatus('PIX', 'AUTHORIZED')).toBe(false);
    expect(isInitialStatus('BOLETO', 'FAILED')).toBe(true);
    expect(isInitialStatus('BOLETO', 'PAID')).toBe(false);
    expect(initialStatus('BOLETO', 'PENDING')).toBe('PENDING');
    try {
      initialStatus('PIX', 'SETTLED');
      throw new PaymentItemStateError('invalid_transition', 'should not get here');
    } catch (e) {
      expect((e as PaymentItemStateError).code).toBe('unknown_status');
    }
  });
});

describe('paid statuses', () => {
  it('are exactly the spec list', () => {
    expect([...PAID_STATUSES].sort()).toEqual(['ACCEPTED', 'AUTHORIZED', 'CAPTURED', 'PAID', 'PAID_PIX', 'SETTLED']);
  });

  it.each([
    ['ACCEPTED', true],
    ['CAPTURED', true],
    ['PAID', true],
    ['PAID_PIX', true],
    ['AUTHORIZED', true],
    ['SETTLED', true],
    ['PREAUTH', false],
    ['VOIDED', false],
    ['AUTH_REJECTED', false],
    ['CHALLENGE_REJECTED', false],
    ['SETUP_REJECTED', false],
    ['FAILED', false],
    ['PENDING', false],
    ['EXPIRED', false],
    ['CANCELED', false],
    ['paid', false],
  ])('isPaid(%s) = %s', (status, paid) => expect(isPaid(status)).toBe(paid));

  it('a paid Pix or boleto stays paid; a card leaves paid only by VOID', () => {
    for (const [method, from, trigger, to] of pairs) {
      if (to !== null && isPaid(from) && !isPaid(to)) {
        expect([method, trigger, to]).toEqual(['CARD', 'VOID', 'VOIDED']);
      }
    }
  });
});
