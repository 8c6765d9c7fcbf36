import {
  allowedFrom,
  BillingStatus,
  BillingTrigger,
  INITIAL_BILLING_STATUS,
  isBillingStatus,
  isCancelableByReceiver,
  isTerminal,
  targetOf,
  transition,
} from './billing.state-machine';

/**
 * Expected table, written independently from the spec's "States and transitions › Billing" plus
 * the documented decision SEND_FAILED --RESEND_SUCCEEDED--> SENT. Every (state, trigger) pair is
 * listed; '-' means the pair is refused.
 */
const TRIGGERS = [
  'SENT_TO_PROVIDER',
  'SEND_FAILED',
  'RESEND_SUCCEEDED',
  'PROVIDER_ACTIVATED',
  'PAID',
  'BANK_REJECTED',
  'NOT_PAID_BY_DUE_DATE',
  'RECEIVER_CANCEL',
  'PAYER_CANCEL',
] as const;
// prettier-ignore
const MATRIX: Record<string, string[]> = {
  //                   SENT_TO_PROVIDER SEND_FAILED    RESEND_SUCCEEDED PROVIDER_ACTIVATED PAID         BANK_REJECTED NOT_PAID_BY_DUE_DATE RECEIVER_CANCEL       PAYER_CANCEL
  PENDING_SEND:       ['SENT',          'SEND_FAILED', '-',             '-',               '-',         '-',          '-',                 'CANCELLED_RECEIVER', '-'              ],
  SENT:               ['-',             '-',           '-',             'ACTIVE',          '-',         '-',          '-',                 'CANCELLED_RECEIVER', 'CANCELLED_PAYER'],
  ACTIVE:             ['-',             '-',           '-',             '-',               'COMPLETED', 'REJECTED',   'EXPIRED',           'CANCELLED_RECEIVER', 'CANCELLED_PAYER'],
  SEND_FAILED:        ['-',             '-',           'SENT',          '-',               '-',         '-',          '-',                 'CANCELLED_RECEIVER', '-'              ],
  COMPLETED:          ['-',             '-',           '-',             '-',               '-',         '-',          '-',                 '-',                  '-'              ],
  REJECTED:           ['-',             '-',           '-',             '-',               '-',         '-',          '-',                 '-',                  '-'              ],
  EXPIRED:            ['-',             '-',           '-',             '-',               '-',         '-',          '-',                 '-',                  '-'              ],
  CANCELLED_RECEIVER: ['-',             '-',           '-',             '-',               '-',         '-',          '-',                 '-',                  '-'              ],
  CANCELLED_PAYER:    ['-',             '-',           '-',             '-',               '-',         '-',          '-',                 '-',                  '-'              ],
};
const TERMINAL = ['COMPLETED', 'REJECTED', 'EXPIRED', 'CANCELLED_RECEIVER', 'CANCELLED_PAYER'];
const DESTINATION: Record<string, string> = {
  SENT_TO_PROVIDER: 'SENT',
  SEND_FAILED: 'SEND_FAILED',
  RESEND_SUCCEEDED: 'SENT',
  PROVIDER_ACTIVATED: 'ACTIVE',
  PAID: 'COMPLETED',
  BANK_REJECTED: 'REJECTED',
  NOT_PAID_BY_DUE_DATE: 'EXPIRED',
  RECEIVER_CANCEL: 'CANCELLED_RECEIVER',
  PAYER_CANCEL: 'CANCELLED_PAYER',
};

const STATES = Object.keys(MATRIX);
const PAIRS = STATES.flatMap((state) =>
  TRIGGERS.map((trigger, i) => [state, trigger, MATRIX[state][i]] as [BillingStatus, BillingTrigger, string]),
);

describe('billing state machine', () => {
  it('has exactly the states and triggers of the spec', () => {
    expect(Object.values(BillingStatus).sort()).toEqual([...STATES].sort());
    expect(Object.values(BillingTrigger).sort()).toEqual([...TRIGGERS].sort());
    expect(PAIRS).toHaveLength(9 * 9);
    expect(INITIAL_BILLING_STATUS).toBe('PENDING_SEND');
  });

  it.each(PAIRS.filter(([, , to]) => to !== '-'))('%s --%s--> %s', (from, trigger, to) => {
    expect(transition(from, trigger)).toEqual({ ok: true, from, trigger, to });
  });

  it.each(PAIRS.filter(([, , to]) => to === '-'))('%s --%s--> refused', (from, trigger) => {
    const result = transition(from, trigger);
    expect(result.ok).toBe(false);
    const expectedReason =
      DESTINATION[trigger] === from ? 'ALREADY_IN_TARGET_STATE' : TERMINAL.includes(from) ? 'TERMINAL_STATE' : 'NOT_ALLOWED_FROM_STATE';
    expect(result).toEqual({ ok: false, from, trigger, reason: expectedReason });
  });

  it.each(TRIGGERS)('allowedFrom(%s) is the column of the matrix', (trigger) => {
    const column = TRIGGERS.indexOf(trigger);
    const expected = STATES.filter((s) => MATRIX[s][column] !== '-');
    expect([...allowedFrom(trigger)].sort()).toEqual(expected.sort());
    expect(targetOf(trigger)).toBe(DESTINATION[trigger]);
  });

  it.each(STATES)('isTerminal(%s)', (state) => {
    expect(isTerminal(state as BillingStatus)).toBe(TERMINAL.includes(state));
  });

  it('terminal states never move and never appear in allowedFrom', () => {
    for (const state of TERMINAL) {
      for (const trigger of TRIGGERS) {
        expect(transition(state as BillingStatus, trigger).ok).toBe(false);
        expect(allowedFrom(trigger)).not.toContain(state);
      }
    }
  });

  it('a failed retry is not a move', () => {
    expect(transition('SEND_FAILED', 'SEND_FAILED')).toEqual({
      ok: false,
      from: 'SEND_FAILED',
      trigger: 'SEND_FAILED',
      reason: 'ALREADY_IN_TARGET_STATE',
    });
  });

  it('a COMPLETED billing cannot be cancelled', () => {
    expect(transition('COMPLETED', 'RECEIVER_CANCEL')).toMatchObject({ ok: false, reason: 'TERMINAL_STATE' });
    expect(transition('COMPLETED', 'PAYER_CANCEL')).toMatchObject({ ok: false, reason: 'TERMINAL_STATE' });
  });

  it('isCancelableByReceiver follows the RECEIVER_CANCEL column', () => {
    expect(STATES.filter((s) => isCancelableByReceiver(s as BillingStatus)).sort()).toEqual([
      'ACTIVE',
      'PENDING_SEND',
      'SEND_FAILED',
      'SENT',
    ]);
  });

  it('isBillingStatus guards untrusted values', () => {
    for (const s of STATES) expect(isBillingStatus(s)).toBe(true);
    for (const v of ['PENDING', 'sent', '', undefined, 0, 'constructor']) expect(isBillingStatus(v)).toBe(false);
  });
});
