import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AcquirerNotification } from '../../../kernel/common/protocols/acquirer-events';
import type { CardRefundNotificationData } from '../../../kernel/common/protocols/acquirer-refunds';
import { Clock } from '../../../kernel/platform/clock/clock';
import { transaction } from '../../../kernel/platform/database/sql';
import { AcquirerEvents } from '../../provider/acquirer/acquirer-events';
import { holdsAmount, RefundTrigger } from '../domain/refund.state-machine';
import { RefundEvents } from '../refund-events';
import { refundView } from '../refund.view';
import { RefundRecord, RefundsRepository } from '../refunds.repository';

/** A provider's verdict on a refund, however it arrived (the first answer, a notification, a lookup). */
export interface RefundVerdict {
  trigger: RefundTrigger;
  providerReference?: string | null;
  /** Our stable code, for a failure. */
  failureCode?: string;
  /** The provider's own words (kept short, never parsed). */
  failureReason?: string | null;
}

/**
 * Applies verdicts to refunds: one conditional UPDATE from the states the trigger may leave
 * (so a duplicate or late notification changes nothing twice), the amount given back to the
 * payment's balance when a refund fails or is reversed, and the `acquiring.refund` webhook, all in
 * one transaction. Listens for `card_refund.updated` (the service protocol's notification, and
 * Adyen's REFUND, REFUND_FAILED, REFUNDED_REVERSED and CANCEL_OR_REFUND, read by the Adyen edge).
 */
@Injectable()
export class ApplyRefundOutcome implements OnModuleInit {
  private readonly logger = new Logger('Refunds');

  constructor(
    private readonly ds: DataSource,
    private readonly refunds: RefundsRepository,
    private readonly events: RefundEvents,
    private readonly clock: Clock,
    private readonly acquirerEvents: AcquirerEvents,
  ) {}

  onModuleInit(): void {
    this.acquirerEvents.subscribe('refunds', (e) => (e.type === 'card_refund.updated' ? this.onNotification(e) : Promise.resolve(false)));
  }

  /** The refund after the verdict, or null when the verdict changed nothing (already applied, or not allowed from its state). */
  apply(refundId: string, v: RefundVerdict): Promise<RefundRecord | null> {
    return transaction(this.ds, async (tx) => {
      const before = await this.refunds.find(tx, null, refundId, true);
      if (!before) return null;
      const now = this.clock.now();
      const after = await this.refunds.transition(
        tx,
        refundId,
        v.trigger,
        {
          providerReference: v.providerReference ?? null,
          failureCode: v.trigger === 'failed' ? (v.failureCode ?? 'refund_declined') : null,
          failureReason: v.failureReason ? v.failureReason.slice(0, 200) : null,
        },
        now,
      );
      if (!after) return null;
      if (holdsAmount(before.status) && !holdsAmount(after.status)) await this.refunds.release(tx, after.paymentId, after.amountCents);
      await this.events.refundChanged(tx, after.tenantId, refundView(after), now);
      if (after.status === 'FAILED' || after.status === 'REVERSED')
        this.logger.warn(
          { refundId, paymentId: after.paymentId, status: after.status, failureCode: after.failureCode },
          'a refund did not stand',
        );
      return after;
    });
  }

  private async onNotification(e: AcquirerNotification): Promise<boolean> {
    const d = e.data as CardRefundNotificationData;
    const known = await this.refunds.get(d.transactionId);
    if (!known) return false;
    const trigger: RefundTrigger = d.status === 'SUCCEEDED' ? 'succeeded' : d.status === 'REVERSED' ? 'reversed' : 'failed';
    const laterFailure = d.status === 'FAILED' && known.status === 'SUCCEEDED';
    await this.apply(known.id, {
      trigger,
      providerReference: d.acquirerId || null,
      failureCode: laterFailure ? 'refund_failed_later' : 'refund_declined',
      failureReason: d.reason ?? null,
    });
    return true;
  }
}
