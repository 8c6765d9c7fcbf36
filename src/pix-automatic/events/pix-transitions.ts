import { Injectable } from '@nestjs/common';

import * as BillingSM from '../domain/billing.state-machine';
import { BillingStatus, BillingTrigger } from '../domain/billing.state-machine';
import * as RecurrenceSM from '../domain/recurrence.state-machine';
import { RecurrenceTrigger } from '../domain/recurrence.state-machine';
import { TransitionRefusal } from '../../../kernel/platform/state-machine/state-machine';
import { BillingsRepository, TransitionExtras } from '../billings.repository';
import { Billing, Recurrence } from '../pix.model';
import { RecurrencesRepository } from '../recurrences.repository';
import { billingEvent, OutboundEvents, PixEvent, recurrenceEvent } from './outbound-events';
import { Tx } from '../../../kernel/platform/database/sql';

export type Moved<T> = { moved: true; entity: T } | { moved: false; entity: T; reason: TransitionRefusal };

const UNSENT: BillingStatus[] = [BillingStatus.PENDING_SEND, BillingStatus.SEND_FAILED];

/**
 * Every status change of a recurrence or billing: asks the pure state machine, persists with a
 * conditional update on a row the caller has locked, and writes the caller's event in the same
 * transaction (once per idTx and type).
 */
@Injectable()
export class PixTransitions {
  constructor(
    private readonly recurrences: RecurrencesRepository,
    private readonly billings: BillingsRepository,
    private readonly events: OutboundEvents,
  ) {}

  async recurrence(m: Tx, r: Recurrence, trigger: RecurrenceTrigger, eventType: PixEvent['type'] | null): Promise<Moved<Recurrence>> {
    const res = RecurrenceSM.transition(r.status, trigger);
    if (!res.ok) return { moved: false, entity: r, reason: res.reason };
    if (!(await this.recurrences.transition(m, r.id, res.to, RecurrenceSM.allowedFrom(trigger)))) {
      return { moved: false, entity: r, reason: TransitionRefusal.NOT_ALLOWED_FROM_STATE };
    }
    const next: Recurrence = { ...r, status: res.to };
    if (eventType) await this.events.publishOnce(m, recurrenceEvent(next, eventType));
    if (trigger === RecurrenceTrigger.PAYER_CANCEL || trigger === RecurrenceTrigger.RECEIVER_CANCEL) await this.withdrawUnsent(m, next);
    return { moved: true, entity: next };
  }

  async billing(
    m: Tx,
    b: Billing,
    trigger: BillingTrigger,
    eventType: PixEvent['type'] | null,
    extras?: TransitionExtras,
  ): Promise<Moved<Billing>> {
    const res = BillingSM.transition(b.status, trigger);
    if (!res.ok) return { moved: false, entity: b, reason: res.reason };
    const next = await this.billings.transition(m, b.id, res.to, BillingSM.allowedFrom(trigger), extras);
    if (!next) return { moved: false, entity: b, reason: TransitionRefusal.NOT_ALLOWED_FROM_STATE };
    if (eventType) await this.events.publishOnce(m, billingEvent(next, eventType));
    return { moved: true, entity: next };
  }

  /** The receiver's cancel: every billing still cancelable goes CANCELLED_RECEIVER with the recurrence. */
  async cancelOpenBillings(m: Tx, r: Recurrence): Promise<void> {
    const open = await this.billings.lockCancelable(m, r.id, BillingSM.allowedFrom(BillingTrigger.RECEIVER_CANCEL));
    for (const b of open) await this.billing(m, b, BillingTrigger.RECEIVER_CANCEL, 'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER');
  }

  /**
   * Billings the provider never received (PENDING_SEND, SEND_FAILED) of a recurrence that was
   * just cancelled are withdrawn by the service (CANCELLED_RECEIVER); the provider settles or
   * cancels the ones it holds and says so by events.
   */
  private async withdrawUnsent(m: Tx, r: Recurrence): Promise<void> {
    const unsent = await this.billings.lockCancelable(m, r.id, UNSENT);
    for (const b of unsent) await this.billing(m, b, BillingTrigger.RECEIVER_CANCEL, 'PIX_AUTOMATIC_RECEIVER_BILLING_CANCELED_RECEIVER');
  }
}
