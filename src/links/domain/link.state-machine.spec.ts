import {
  acceptsPayments,
  allowedFrom,
  isTerminal,
  LINK_STATUSES,
  LINK_TRIGGERS,
  LinkStateError,
  LinkStatus,
  LinkTrigger,
  nextLinkStatus,
  planStatusChange,
  transition,
} from './link.state-machine';

/** Expected result of every (state, trigger) pair; null = refused. Written out by hand from the spec. */
const EXPECTED: Record<LinkStatus, Record<LinkTrigger, LinkStatus | null>> = {
  ACTIVE: { DEACTIVATE: 'INACTIVE', ACTIVATE: null, EXPIRES_AT_REACHED: 'EXPIRED', MAX_USES_REACHED: 'EXHAUSTED' },
  INACTIVE: { DEACTIVATE: null, ACTIVATE: 'ACTIVE', EXPIRES_AT_REACHED: null, MAX_USES_REACHED: null },
  EXPIRED: { DEACTIVATE: null, ACTIVATE: null, EXPIRES_AT_REACHED: null, MAX_USES_REACHED: null },
  EXHAUSTED: { DEACTIVATE: null, ACTIVATE: null, EXPIRES_AT_REACHED: null, MAX_USES_REACHED: null },
};

const pairs = LINK_STATUSES.flatMap((s) => LINK_TRIGGERS.map((t) => [s, t, EXPECTED[s][t]] as const));

describe('link state machine', () => {
  it('covers exactly the statuses and triggers of the matrix', () => {
    expect([...LINK_STATUSES].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect([...LINK_TRIGGERS].sort()).toEqual(Object.keys(EXPECTED.ACTIVE).sort());
    expect(pairs).toHaveLength(16);
  });

  it.each(pairs)('%s + %s -> %s', (from, trigger, to) => {
    expect(nextLinkStatus(from, trigger)).toBe(to);
    if (to === null) {
      expect(() => transition(from, trigger)).toThrow(LinkStateError);
      try {
        transition(from, trigger);
      } catch (e) {
        expect((e as LinkStateError).code).toBe('invalid_transition');
        expect((e as LinkStateError).details).toEqual({ from, trigger });
      }
    } else {
      expect(transition(from, trigger)).toBe(to);
    }
  });

  it.each(LINK_TRIGGERS)('allowedFrom(%s) lists the matrix rows that accept it', (trigger) => {
    const expected = LINK_STATUSES.filter((s) => EXPECTED[s][trigger] !== null);
    expect(allowedFrom(trigger)).toEqual(expected);
  });

  it('EXPIRED and EXHAUSTED are terminal, ACTIVE alone takes payments', () => {
    expect(LINK_STATUSES.filter(isTerminal)).toEqual(['EXPIRED', 'EXHAUSTED']);
    expect(LINK_STATUSES.filter(acceptsPayments)).toEqual(['ACTIVE']);
  });

  it('refuses unknown states', () => {
    expect(nextLinkStatus('DELETED' as LinkStatus, 'ACTIVATE')).toBeNull();
    expect(nextLinkStatus('ACTIVE', 'toString' as LinkTrigger)).toBeNull();
  });
});

describe('planStatusChange (PATCH …/status)', () => {
  it('maps ACTIVE and INACTIVE to triggers, and repeats to no-ops', () => {
    expect(planStatusChange('ACTIVE', 'INACTIVE')).toEqual({ kind: 'transition', trigger: 'DEACTIVATE', from: 'ACTIVE', to: 'INACTIVE' });
    expect(planStatusChange('INACTIVE', 'ACTIVE')).toEqual({ kind: 'transition', trigger: 'ACTIVATE', from: 'INACTIVE', to: 'ACTIVE' });
    expect(planStatusChange('ACTIVE', 'ACTIVE')).toEqual({ kind: 'noop', status: 'ACTIVE' });
    expect(planStatusChange('INACTIVE', 'INACTIVE')).toEqual({ kind: 'noop', status: 'INACTIVE' });
  });

  it.each([
    ['ACTIVE', 'EXPIRED', 'link_status_not_settable'],
    ['ACTIVE', 'EXHAUSTED', 'link_status_not_settable'],
    ['INACTIVE', 'PAUSED', 'link_status_not_settable'],
    ['EXPIRED', 'ACTIVE', 'invalid_transition'],
    ['EXHAUSTED', 'ACTIVE', 'invalid_transition'],
    ['EXPIRED', 'INACTIVE', 'invalid_transition'],
    ['EXHAUSTED', 'INACTIVE', 'invalid_transition'],
  ] as const)('%s asked %s -> %s', (current, requested, code) => {
    expect(() => planStatusChange(current, requested)).toThrow(LinkStateError);
    try {
      planStatusChange(current, requested);
    } catch (e) {
      expect((e as LinkStateError).code).toBe(code);
    }
  });
});
