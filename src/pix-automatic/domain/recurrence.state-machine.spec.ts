import {
  acceptsBillings,
  allowedFrom,
  isRecurrenceStatus,
  isTerminal,
  RecurrenceStatus,
  RecurrenceTrigger,
  targetOf,
  transition,
} from './recurrence.state-machine';

/**
 * Expected table, written independently from the spec's "States and transitions › Recurrence"
 * (plus the documented decisions: PENDING can be cancelled by the receiver, ACCEPTED can reach its
 * end date). Every (state, trigger) pair is listed; '-' means the pair is refused.
 */
const TRIGGERS = [
  'PAYER_ACCEPTED',
  'PAYER_REJECTED',
  'AUTHORIZATION_EXPIRED',
  'FIRST_BILLING_GENERATED',
  'RECEIVER_CANCEL',
  'PAYER_CANCEL',
  'END_DATE_REACHED',
] as const;
// prettier-ignore
const MATRIX: Record<string, string[]> = {
  //                   PAYER_ACCEPTED  PAYER_REJECTED  AUTHORIZATION_EXPIRED  FIRST_BILLING_GENERATED  RECEIVER_CANCEL         PAYER_CANCEL       END_DATE_REACHED
  PENDING:            ['ACCEPTED',     'REJECTED',     'EXPIRED',             '-',                     'CANCELLED_RECEIVER',   '-',               '-'      ],
  ACCEPTED:           ['-',            '-',            '-',                   'ACTIVE',                'CANCELLED_RECEIVER',   'CANCELLED_PAYER', 'EXPIRED'],
  ACTIVE:             ['-',            '-',            '-',                   '-',                     'CANCELLED_RECEIVER',   'CANCELLED_PAYER', 'EXPIRED'],
  REJECTED:           ['-',            '-',            '-',                   '-',                     '-',                    '-',               '-'      ],
  EXPIRED:            ['-',            '-',            '-',                   '-',                     '-',                    '-',               '-'      ],
  CANCELLED_RECEIVER: ['-',            '-',            '-',                   '-',                     '-',                    '-',               '-'      ],
  CANCELLED_PAYER:    ['-',            '-',            '-',                   '-',                     '-',                    '-',               '-'      ],
};
const TERMINAL = ['REJECTED', 'EXPIRED', 'CANCELLED_RECEIVER', 'CANCELLED_PAYER'];
/** Destination of each trigger, used to tell an idempotent repeat from a real refusal. */
const DESTINATION: Record<string, string> = {
  PAYER_ACCEPTED: 'ACCEPTED',
  PAYER_REJECTED: 'REJECTED',
  AUTHORIZATION_EXPIRED: 'EXPIRED',
  FIRST_BILLING_GENERATED: 'ACTIVE',
  RECEIVER_CANCEL: 'CANCELLED_RECEIVER',
  PAYER_CANCEL: 'CANCELLED_PAYER',
  END_DATE_REACHED: 'EXPIRED',
};

const STATES = Object.keys(MATRIX);
const PAIRS = STATES.flatMap((state) =>
  TRIGGERS.map((trigger, i) => [state, trigger, MATRIX[state][i]] as [RecurrenceStatus, RecurrenceTrigger, string]),
);

describe('recurrence state machine', () => {
  it('has exactly the states and triggers of the spec', () => {
    expect(Object.values(RecurrenceStatus).sort()).toEqual([...STATES].sort());
    expect(Object.values(RecurrenceTrigger).sort()).toEqual([...TRIGGERS].sort());
    expect(PAIRS).toHaveLength(7 * 7);
  });

  it.each(PAIRS.filter(([, , to]) => to !== '-'))('%s --%s--> %s', (from, trigger, to) => {
    expect(transition(from, trigger)).toEqual({ ok: true, from, trigger, to });
  });

  it.each(PAIRS.filter(([, , to]) => to === '-'))('%s --%s--> refused', (from, trigger) => {
    const result = transition(from, trigger);
    expect(result.ok).toBe(false);
    if (result.ok) return;
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

  it('allowedFrom returns a copy that cannot corrupt the table', () => {
    allowedFrom('RECEIVER_CANCEL').push('CANCELLED_PAYER');
    expect(allowedFrom('RECEIVER_CANCEL')).toEqual(['PENDING', 'ACCEPTED', 'ACTIVE']);
  });

  it.each(STATES)('isTerminal(%s)', (state) => {
    expect(isTerminal(state as RecurrenceStatus)).toBe(TERMINAL.includes(state));
  });

  it('terminal states never move and never appear in allowedFrom', () => {
    for (const state of TERMINAL) {
      for (const trigger of TRIGGERS) {
        expect(transition(state as RecurrenceStatus, trigger).ok).toBe(false);
        expect(allowedFrom(trigger)).not.toContain(state);
      }
    }
  });

  it('cancelling twice is an idempotent no-op, not a move', () => {
    expect(transition('CANCELLED_RECEIVER', 'RECEIVER_CANCEL')).toMatchObject({
      ok: false,
      reason: 'ALREADY_IN_TARGET_STATE',
    });
    expect(transition('CANCELLED_PAYER', 'RECEIVER_CANCEL')).toMatchObject({ ok: false, reason: 'TERMINAL_STATE' });
  });

  it('refuses values that are not states or triggers', () => {
    expect(transition('NOPE' as RecurrenceStatus, 'PAYER_ACCEPTED')).toMatchObject({
      ok: false,
      reason: 'NOT_ALLOWED_FROM_STATE',
    });
    expect(transition('PENDING', 'NOPE' as RecurrenceTrigger)).toMatchObject({
      ok: false,
      reason: 'NOT_ALLOWED_FROM_STATE',
    });
    expect(transition('PENDING', 'toString' as RecurrenceTrigger).ok).toBe(false);
    expect(allowedFrom('NOPE' as RecurrenceTrigger)).toEqual([]);
  });

  it('isRecurrenceStatus guards untrusted values', () => {
    for (const s of STATES) expect(isRecurrenceStatus(s)).toBe(true);
    for (const v of ['pending', 'COMPLETED', '', null, 1, 'toString']) expect(isRecurrenceStatus(v)).toBe(false);
  });

  it('acceptsBillings only for ACCEPTED and ACTIVE', () => {
    expect(STATES.filter((s) => acceptsBillings(s as RecurrenceStatus))).toEqual(['ACCEPTED', 'ACTIVE']);
  });
});
