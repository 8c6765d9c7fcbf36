/**
 * 3DS authentication states as a pure table. `initialize` creates INITIALIZED; setup may be
 * repeated until authenticate; authenticate ends it or opens a challenge; the challenge result
 * ends it. Persisted with conditional UPDATEs over `sourcesOf(trigger)`.
 */
import { stateMachineOfTable } from '../../kernel/platform/state-machine/state-machine';

export const THREE_DS_STATUSES = [
  'INITIALIZED',
  'SETUP_COMPLETE',
  'AUTHENTICATED',
  'NOT_AUTHENTICATED',
  'UNAVAILABLE',
  'CHALLENGE_PENDING',
  'CHALLENGE_FAILED',
] as const;
export type ThreeDsStatus = (typeof THREE_DS_STATUSES)[number];

export const THREE_DS_TRIGGERS = [
  'setup',
  'authenticated',
  'not_authenticated',
  'unavailable',
  'challenge',
  'challenge_passed',
  'challenge_failed',
] as const;
export type ThreeDsTrigger = (typeof THREE_DS_TRIGGERS)[number];

const TABLE: Readonly<Record<ThreeDsStatus, Partial<Record<ThreeDsTrigger, ThreeDsStatus>>>> = {
  INITIALIZED: { setup: 'SETUP_COMPLETE' },
  SETUP_COMPLETE: {
    setup: 'SETUP_COMPLETE',
    authenticated: 'AUTHENTICATED',
    not_authenticated: 'NOT_AUTHENTICATED',
    unavailable: 'UNAVAILABLE',
    challenge: 'CHALLENGE_PENDING',
  },
  CHALLENGE_PENDING: { challenge_passed: 'AUTHENTICATED', challenge_failed: 'CHALLENGE_FAILED' },
  AUTHENTICATED: {},
  NOT_AUTHENTICATED: {},
  UNAVAILABLE: {},
  CHALLENGE_FAILED: {},
};

/** The 3DS authentication machine on the kernel's API. */
export const THREE_DS_MACHINE = stateMachineOfTable('three-ds', THREE_DS_STATUSES, THREE_DS_TRIGGERS, TABLE);

export function transition(from: ThreeDsStatus, trigger: ThreeDsTrigger): ThreeDsStatus | null {
  const r = THREE_DS_MACHINE.transition(from, trigger);
  return r.ok ? r.to : null;
}

export function sourcesOf(trigger: ThreeDsTrigger): ThreeDsStatus[] {
  return THREE_DS_MACHINE.sourcesOf(trigger);
}

/** The trigger of a 3DS server answer (`challenged`: the answer comes after a challenge). */
export function triggerOf(transStatus: 'Y' | 'N' | 'U' | 'C', challenged: boolean): ThreeDsTrigger {
  if (challenged) return transStatus === 'Y' ? 'challenge_passed' : 'challenge_failed';
  return ({ Y: 'authenticated', N: 'not_authenticated', U: 'unavailable', C: 'challenge' } as const)[transStatus];
}
