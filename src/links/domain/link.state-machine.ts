import { defineStateMachine } from '../../../kernel/platform/state-machine/state-machine';
import { CodedError } from '../../../kernel/common/formats/coded-error';

/**
 * Payment link status, as the spec's table:
 *
 * | From     | Trigger            | To        |
 * |----------|--------------------|-----------|
 * | ACTIVE   | DEACTIVATE         | INACTIVE  |
 * | INACTIVE | ACTIVATE           | ACTIVE    |
 * | ACTIVE   | EXPIRES_AT_REACHED | EXPIRED   |
 * | ACTIVE   | MAX_USES_REACHED   | EXHAUSTED |
 *
 * EXPIRED and EXHAUSTED are terminal and are set only by the service (timer, payment
 * count), never by the caller's status update. Every other (state, trigger) pair is refused.
 * Persist with `UPDATE … SET status = :to WHERE id = :id AND status = ANY(:allowedFrom)`.
 */

export const LINK_STATUSES = ['ACTIVE', 'INACTIVE', 'EXPIRED', 'EXHAUSTED'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const LINK_TRIGGERS = ['DEACTIVATE', 'ACTIVATE', 'EXPIRES_AT_REACHED', 'MAX_USES_REACHED'] as const;
export type LinkTrigger = (typeof LINK_TRIGGERS)[number];

/** Statuses a caller may ask for in `PATCH …/status`. */
export const CALLER_SETTABLE_LINK_STATUSES: readonly LinkStatus[] = ['ACTIVE', 'INACTIVE'];

export const LINK_TRANSITIONS: Readonly<Record<LinkStatus, Readonly<Partial<Record<LinkTrigger, LinkStatus>>>>> = Object.freeze({
  ACTIVE: Object.freeze({ DEACTIVATE: 'INACTIVE', EXPIRES_AT_REACHED: 'EXPIRED', MAX_USES_REACHED: 'EXHAUSTED' }),
  INACTIVE: Object.freeze({ ACTIVATE: 'ACTIVE' }),
  EXPIRED: Object.freeze({}),
  EXHAUSTED: Object.freeze({}),
});

/** What the link's own triggers look at: the clock, its expiry, its use count. */
export interface LinkGuardContext {
  now: Date;
  expiresAt: Date | null;
  maxUses: number | null;
  paidCount: number;
}

/** The link machine on the kernel's API; its guards decide when the service's own triggers fire. */
export const LINK_MACHINE = defineStateMachine<LinkStatus, LinkTrigger, LinkGuardContext>(
  'link',
  Object.fromEntries(LINK_STATUSES.map((s) => [s, s])) as Record<LinkStatus, LinkStatus>,
  Object.fromEntries(LINK_TRIGGERS.map((t) => [t, t])) as Record<LinkTrigger, LinkTrigger>,
  {
    DEACTIVATE: { from: ['ACTIVE'], to: 'INACTIVE' },
    ACTIVATE: { from: ['INACTIVE'], to: 'ACTIVE' },
    EXPIRES_AT_REACHED: { from: ['ACTIVE'], to: 'EXPIRED' },
    MAX_USES_REACHED: { from: ['ACTIVE'], to: 'EXHAUSTED' },
  },
  ['EXPIRED', 'EXHAUSTED'],
  {
    EXPIRES_AT_REACHED: (c) => c.expiresAt !== null && c.expiresAt.getTime() <= c.now.getTime(),
    MAX_USES_REACHED: (c) => c.maxUses !== null && c.paidCount >= c.maxUses,
  },
);

/** Whether a link's own trigger (expiry, use count) fires now: its status allows it and its guard holds. */
export function linkTriggerDue(status: LinkStatus, trigger: 'EXPIRES_AT_REACHED' | 'MAX_USES_REACHED', ctx: LinkGuardContext): boolean {
  return LINK_MACHINE.transition(status, trigger, ctx).ok;
}

export type LinkStateErrorCode = 'invalid_transition' | 'link_status_not_settable';

export class LinkStateError extends CodedError<LinkStateErrorCode> {
  constructor(code: LinkStateErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, message, details);
  }
}

/** The next status, or null when the trigger does not apply to `from` (guards aside: see linkTriggerDue). */
export function nextLinkStatus(from: LinkStatus, trigger: LinkTrigger): LinkStatus | null {
  if (!LINK_MACHINE.isState(from) || !LINK_MACHINE.isTrigger(trigger)) return null;
  return LINK_MACHINE.allowedFrom(trigger).includes(from) ? LINK_MACHINE.targetOf(trigger) : null;
}

/** The next status. @throws LinkStateError invalid_transition */
export function transition(from: LinkStatus, trigger: LinkTrigger): LinkStatus {
  const to = nextLinkStatus(from, trigger);
  if (to === null) {
    throw new LinkStateError('invalid_transition', `A link in ${from} cannot take ${trigger}`, { from, trigger });
  }
  return to;
}

/** Statuses from which `trigger` is allowed (for the conditional UPDATE). */
export function allowedFrom(trigger: LinkTrigger): LinkStatus[] {
  return LINK_MACHINE.allowedFrom(trigger);
}

/** True for EXPIRED and EXHAUSTED: no trigger leaves them. */
export function isTerminal(status: LinkStatus): boolean {
  return LINK_MACHINE.isTerminal(status);
}

/** Only a link that can still be deactivated, expire or fill up (ACTIVE) takes new payments. */
export function acceptsPayments(status: LinkStatus): boolean {
  return LINK_MACHINE.allowedFrom('DEACTIVATE').includes(status);
}

export type LinkStatusChange =
  { kind: 'noop'; status: LinkStatus } | { kind: 'transition'; trigger: LinkTrigger; from: LinkStatus; to: LinkStatus };

/**
 * Turns the caller's `{"status": …}` into a trigger. Asking for the current status is a
 * no-op (repeating a PATCH changes nothing). @throws LinkStateError link_status_not_settable
 * for EXPIRED, EXHAUSTED or an unknown value; invalid_transition for a terminal link.
 */
export function planStatusChange(current: LinkStatus, requested: string): LinkStatusChange {
  if (!(CALLER_SETTABLE_LINK_STATUSES as readonly string[]).includes(requested)) {
    throw new LinkStateError('link_status_not_settable', `Status ${requested} cannot be set; use ACTIVE or INACTIVE`, {
      field: 'status',
      requested,
    });
  }
  if (current === requested) return { kind: 'noop', status: current };
  const trigger: LinkTrigger = requested === 'ACTIVE' ? 'ACTIVATE' : 'DEACTIVATE';
  const to = nextLinkStatus(current, trigger);
  if (to === null)
    throw new LinkStateError('invalid_transition', `A link in ${current} cannot take ${trigger}`, {
      field: 'status',
      from: current,
      trigger,
    });
  return { kind: 'transition', trigger, from: current, to };
}
