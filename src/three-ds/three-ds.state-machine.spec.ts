import {
  sourcesOf,
  THREE_DS_STATUSES,
  THREE_DS_TRIGGERS,
  ThreeDsStatus,
  ThreeDsTrigger,
  transition,
  triggerOf,
} from './three-ds.state-machine';

const EXPECTED: Record<string, ThreeDsStatus> = {
  'INITIALIZED/setup': 'SETUP_COMPLETE',
  'SETUP_COMPLETE/setup': 'SETUP_COMPLETE',
  'SETUP_COMPLETE/authenticated': 'AUTHENTICATED',
  'SETUP_COMPLETE/not_authenticated': 'NOT_AUTHENTICATED',
  'SETUP_COMPLETE/unavailable': 'UNAVAILABLE',
  'SETUP_COMPLETE/challenge': 'CHALLENGE_PENDING',
  'CHALLENGE_PENDING/challenge_passed': 'AUTHENTICATED',
  'CHALLENGE_PENDING/challenge_failed': 'CHALLENGE_FAILED',
};

describe('3DS authentication state machine', () => {
  const pairs = THREE_DS_STATUSES.flatMap((s) => THREE_DS_TRIGGERS.map((t) => [s, t] as [ThreeDsStatus, ThreeDsTrigger]));

  it.each(pairs)('%s + %s', (from, trigger) => {
    expect(transition(from, trigger)).toBe(EXPECTED[`${from}/${trigger}`] ?? null);
  });

  it('maps 3DS server answers to triggers', () => {
    expect(triggerOf('Y', false)).toBe('authenticated');
    expect(triggerOf('N', false)).toBe('not_authenticated');
    expect(triggerOf('U', false)).toBe('unavailable');
    expect(triggerOf('C', false)).toBe('challenge');
    expect(triggerOf('Y', true)).toBe('challenge_passed');
    expect(triggerOf('N', true)).toBe('challenge_failed');
  });

  it('lets setup repeat until authenticate', () => {
    expect(sourcesOf('setup')).toEqual(['INITIALIZED', 'SETUP_COMPLETE']);
  });
});
