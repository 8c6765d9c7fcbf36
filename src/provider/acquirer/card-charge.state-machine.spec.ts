import {
  CARD_PAYMENT_STATUSES,
  CARD_PAYMENT_TRIGGERS,
  CardPaymentStatus,
  CardPaymentTrigger,
  isPaid,
  isTerminal,
  sourcesOf,
  transition,
} from './card-charge.state-machine';

const EXPECTED: Record<string, CardPaymentStatus> = {
  'PROCESSING/approved_sale': 'ACCEPTED',
  'PROCESSING/approved_preauth': 'PREAUTH',
  'PROCESSING/refused': 'AUTH_REJECTED',
  'PROCESSING/failed': 'FAILED',
  'PREAUTH/capture': 'CAPTURED',
  'PREAUTH/void': 'VOIDED',
  'ACCEPTED/void': 'VOIDED',
  'CAPTURED/void': 'VOIDED',
  'CAPTURED/capture_failed': 'CAPTURE_FAILED',
  'VOIDED/void_failed': 'VOID_FAILED',
};

describe('card payment state machine', () => {
  const pairs = CARD_PAYMENT_STATUSES.flatMap((s) => CARD_PAYMENT_TRIGGERS.map((t) => [s, t] as [CardPaymentStatus, CardPaymentTrigger]));

  it.each(pairs)('%s + %s', (from, trigger) => {
    expect(transition(from, trigger)).toBe(EXPECTED[`${from}/${trigger}`] ?? null);
  });

  it('lists the allowed sources of each trigger for the conditional UPDATE', () => {
    expect(sourcesOf('capture')).toEqual(['PREAUTH']);
    expect(sourcesOf('void').sort()).toEqual(['ACCEPTED', 'CAPTURED', 'PREAUTH']);
    expect(sourcesOf('refused')).toEqual(['PROCESSING']);
  });

  it('knows terminal and paid statuses', () => {
    expect(CARD_PAYMENT_STATUSES.filter(isTerminal).sort()).toEqual([
      'AUTH_REJECTED',
      'CAPTURE_FAILED',
      'CHALLENGE_REJECTED',
      'FAILED',
      'SETUP_REJECTED',
      'VOID_FAILED',
    ]);
    expect(CARD_PAYMENT_STATUSES.filter(isPaid)).toEqual(['ACCEPTED', 'CAPTURED']);
  });
});
