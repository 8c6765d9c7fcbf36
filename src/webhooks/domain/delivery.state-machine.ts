import { stateMachineOfTable } from '../../../kernel/platform/state-machine/state-machine';
import { DELIVERY_STATUSES, DeliveryStatus } from '../event-types';

/**
 * A webhook delivery's states: PENDING until an attempt settles it, again PENDING while the
 * schedule has attempts left; DELIVERED on a 2xx, CANCELLED when the receiver answers 410 (or
 * its endpoint is disabled), DEAD after the last attempt. NO_ENDPOINT is born settled (no
 * endpoint was registered). A replay is a new delivery, not a transition.
 */
export const DELIVERY_TRIGGERS = ['delivered', 'attempt_failed', 'attempts_exhausted', 'endpoint_gone'] as const;
export type DeliveryTrigger = (typeof DELIVERY_TRIGGERS)[number];

export const DELIVERY_MACHINE = stateMachineOfTable<DeliveryStatus, DeliveryTrigger>(
  'webhook-delivery',
  DELIVERY_STATUSES,
  DELIVERY_TRIGGERS,
  {
    PENDING: { delivered: 'DELIVERED', attempt_failed: 'PENDING', attempts_exhausted: 'DEAD', endpoint_gone: 'CANCELLED' },
    DELIVERED: {},
    DEAD: {},
    CANCELLED: {},
    NO_ENDPOINT: {},
  },
);

/** Where an attempt takes a pending delivery (every trigger leaves PENDING). */
export function afterAttempt<T extends DeliveryTrigger>(trigger: T): 'PENDING' | 'DELIVERED' | 'DEAD' | 'CANCELLED' {
  return DELIVERY_MACHINE.targetOf(trigger) as 'PENDING' | 'DELIVERED' | 'DEAD' | 'CANCELLED';
}
