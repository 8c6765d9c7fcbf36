import { Injectable, Logger } from '@nestjs/common';
import type { AdyenNotificationItem } from '../../../../kernel/common/protocols/adyen';
import { DataSource } from 'typeorm';
import * as sql from '../../../../kernel/platform/database/sql';
import { JobQueue } from '../../../../kernel/platform/queue/job-queue';
import { AdyenConfig } from './adyen.config';
import { adyenItemRejection } from './adyen-item-checks';
import { AcquirerEvents } from '../acquirer-events';
import { AdyenStore, StoredAdyenNotification } from './adyen-store';
import { adyenEventMeaning, boletoStatusOf, cardReportOf } from './adyen-event-codes.map';
import type { CardDisputeNotificationData, CardRefundNotificationData } from '../../../../kernel/common/protocols/acquirer-refunds';

/** The job kind that applies one kept Adyen webhook item (its key: the item's id). */
export const ADYEN_NOTIFICATION_JOB = 'adyen.notification';

/**
 * Accepted Adyen webhook items, applied once each. The receiver keeps each item (unique per
 * pspReference + eventCode + success, so a duplicate delivery adds nothing) and, in the same
 * transaction, enqueues its application on the job queue; an item whose fields fail the edge's
 * checks is kept as rejected with its reason and never applied. The queue applies each item in
 * its own transaction, marked applied in it: a handler's failure rolls back only that item, which
 * is retried on its backoff and dead past its attempts, while every later item goes on. Each item
 * becomes a `card_transaction.updated` (or, for a boleto attempt, a `boleto.updated` with the
 * status links apply), a refund's or a dispute's event for AcquirerEvents' subscribers. An
 * AUTHORISATION is also what reconciles an attempt whose answer was lost
 * (AdyenAcquirer.findCardAuthorization reads it).
 */
@Injectable()
export class AdyenNotifications {
  private readonly logger = new Logger('AdyenNotifications');

  constructor(
    private readonly ds: DataSource,
    private readonly store: AdyenStore,
    private readonly events: AcquirerEvents,
    private readonly queue: JobQueue,
    config: AdyenConfig,
  ) {
    queue.register(ADYEN_NOTIFICATION_JOB, { ...config.inbox, dependency: 'acquirer' }, async (job, tx) => {
      const n = await this.store.pending(tx, job.key);
      if (!n) return; // applied already, or kept as rejected
      await this.apply(n);
      await this.store.applied(tx, n.id);
    });
  }

  /** Keeps the items (rejected ones with their reason) and enqueues the others' application; answers how many were new. */
  async accept(items: AdyenNotificationItem[]): Promise<number> {
    const checked = items.map((item) => ({ item, rejected: adyenItemRejection(item) }));
    for (const c of checked)
      if (c.rejected)
        this.logger.warn(
          { pspReference: c.item.pspReference, eventCode: c.item.eventCode, reason: c.rejected },
          'Adyen item kept as rejected',
        );
    const fresh = await sql.transaction(this.ds, async (tx) => {
      const ids = await this.store.accept(tx, checked);
      for (const id of ids) await this.queue.enqueue(tx, ADYEN_NOTIFICATION_JOB, id);
      return ids;
    });
    if (fresh.length) this.queue.kick();
    return fresh.length;
  }

  /** Runs what is due now (the queue's pass): for a test or an operator that cannot wait a second. */
  async applyDue(): Promise<number> {
    return this.queue.runDue();
  }

  private async apply(n: StoredAdyenNotification): Promise<void> {
    const meaning = adyenEventMeaning(n.eventCode);
    if (meaning.attention)
      this.logger.warn(
        { pspReference: n.pspReference, originalReference: n.originalReference, eventCode: n.eventCode, success: n.success },
        'Adyen reported an event that needs attention',
      );
    const eventId = `adyen:${n.pspReference}:${n.eventCode}:${n.success}`;
    const occurredAt = new Date().toISOString();
    if (meaning.kind === 'other') {
      this.logger.log({ pspReference: n.pspReference, eventCode: n.eventCode }, 'Adyen event not applied here');
      return;
    }
    if (meaning.kind === 'refund') {
      const data: CardRefundNotificationData = {
        transactionId: n.merchantReference,
        merchantId: '',
        acquirerId: n.pspReference,
        acquirerTransactionId: n.originalReference ?? '',
        status: meaning.status(n.success),
        amountCents: n.amountCents,
        ...(n.reason ? { reason: n.reason } : {}),
      };
      await this.events.dispatch({ eventId, type: 'card_refund.updated', occurredAt, data });
      return;
    }
    if (meaning.kind === 'dispute') {
      const data: CardDisputeNotificationData = {
        transactionId: n.merchantReference,
        merchantId: '',
        acquirerId: n.originalReference ?? n.pspReference,
        acquirerTransactionId: n.originalReference ?? n.pspReference,
        status: meaning.stage,
        amountCents: n.amountCents,
        reasonCode: n.additionalData.chargebackReasonCode ?? n.reason ?? 'unknown',
        ...(n.additionalData.defensePeriodEndsAt ? { defendBy: n.additionalData.defensePeriodEndsAt } : {}),
        at: n.eventDate,
      };
      await this.events.dispatch({ eventId, type: 'card_dispute.updated', occurredAt, data });
      return;
    }
    const boleto = (await this.store.attemptByReference(n.merchantReference))?.kind === 'boleto';
    // Adyen's words stop here: a card payment's event goes on in the service's (CardReport)
    const status = boleto ? boletoStatusOf(n.eventCode, n.success) : cardReportOf(n.eventCode, n.success);
    if (status === null) {
      this.logger.log(
        { pspReference: n.pspReference, eventCode: n.eventCode, success: n.success },
        'Adyen payment event with nothing to apply',
      );
      return;
    }
    await this.events.dispatch({
      eventId,
      type: boleto ? 'boleto.updated' : 'card_transaction.updated',
      occurredAt,
      data: {
        transactionId: n.merchantReference,
        merchantId: '',
        acquirerId: n.originalReference ?? n.pspReference,
        status,
        amountCents: n.amountCents,
        ...(boleto && status === 'PAID' ? { paidVia: 'BANK' as const } : {}),
      },
    });
  }
}
