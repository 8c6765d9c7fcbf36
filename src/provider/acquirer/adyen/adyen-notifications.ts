import { Injectable, Logger } from '@nestjs/common';
import type { AdyenNotificationItem } from '../../../../kernel/common/protocols/adyen';
import { PeriodicJob, PeriodicJobs } from '../../../../kernel/platform/jobs/periodic-jobs';
import { AcquirerEvents } from '../acquirer-events';
import { AdyenStore, StoredAdyenNotification } from './adyen-store';
import { adyenEventMeaning, boletoStatusOf } from './adyen-event-codes.map';
import type { CardDisputeNotificationData, CardRefundNotificationData } from '../../../../kernel/common/protocols/acquirer-refunds';

/**
 * Accepted Adyen webhook items, applied once each: stored by the receiver (unique per
 * pspReference + eventCode + success, so a duplicate delivery adds nothing), then applied in
 * order by this job, which hands each to AcquirerEvents as a `card_transaction.updated` (or, for
 * a boleto attempt, a `boleto.updated` with the status links apply) and logs the ones an
 * operator must act on. An AUTHORISATION is also what reconciles an attempt whose
 * answer was lost (AdyenAcquirer.findCardAuthorization reads it).
 */
@Injectable()
export class AdyenNotifications {
  private readonly logger = new Logger('AdyenNotifications');
  private readonly job: PeriodicJob;

  constructor(
    private readonly store: AdyenStore,
    private readonly events: AcquirerEvents,
    jobs: PeriodicJobs,
  ) {
    this.job = jobs.schedule({ name: 'adyen-notifications', everyMs: 5000, run: () => this.applyDue() });
  }

  async accept(items: AdyenNotificationItem[]): Promise<number> {
    const fresh = await this.store.accept(items);
    if (fresh.length) this.job.kick();
    return fresh.length;
  }

  /** One pass: applies what is pending; answers how many items it applied. */
  async applyDue(limit = 100): Promise<number> {
    return this.store.applyPending(limit, (n) => this.apply(n));
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
    const status = boleto ? boletoStatusOf(n.eventCode, n.success) : `${n.eventCode}:${n.success ? 'success' : 'failure'}`;
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
