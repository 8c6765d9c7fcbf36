import { Injectable } from '@nestjs/common';
import type { CardDisputeNotificationData, CardRefundNotificationData } from '../../../kernel/common/protocols/acquirer-refunds';
import { Clock } from '../../../kernel/platform/clock/clock';
import type { Tx } from '../../../kernel/platform/database/sql';
import { adyenDisputeItem, adyenRefundItem, DEFENDABLE } from './adyen/sandbox-adyen-cases';
import { SandboxAdyenWebhooks } from './adyen/sandbox-adyen-webhooks';
import { SandboxNotifier } from './sandbox-notifier';
import type { DisputeStep, RefundStep } from './sandbox-cases.types';

/** What a transaction enqueued, to send once it committed. */
export class CaseOutbox {
  readonly notifications: string[] = [];
  adyen = false;
}

/**
 * Reports refund steps and dispute stages on the face the refund was asked on (the payment was
 * made on, for a dispute): the `service` protocol's signed `card_refund.updated` /
 * `card_dispute.updated` through SandboxNotifier, or Adyen's standard webhooks through
 * SandboxAdyenWebhooks. Both are outboxes written in the caller's transaction; `flush` sends
 * after it committed.
 */
@Injectable()
export class SandboxCaseReports {
  constructor(
    private readonly notifier: SandboxNotifier,
    private readonly webhooks: SandboxAdyenWebhooks,
    private readonly clock: Clock,
  ) {}

  async refund(db: Tx, s: RefundStep, out: CaseOutbox): Promise<void> {
    if (s.refund.face === 'adyen') {
      const { key, item } = adyenRefundItem(s, this.clock.now().toISOString());
      await this.webhooks.enqueueIn(db, key, item);
      out.adyen = true;
      return;
    }
    const data: CardRefundNotificationData = {
      transactionId: s.refund.request_key,
      merchantId: s.tx.merchant_id,
      acquirerId: s.refund.id,
      acquirerTransactionId: s.tx.id,
      status: s.status,
      amountCents: Number(s.refund.amount_cents),
      ...(s.reason ? { reason: s.reason } : {}),
    };
    out.notifications.push(await this.notifier.enqueue(db, 'card_refund.updated', data));
  }

  async dispute(db: Tx, s: DisputeStep, out: CaseOutbox): Promise<void> {
    if (s.dispute.face === 'adyen') {
      const { key, item } = adyenDisputeItem(s, this.clock.now().toISOString());
      await this.webhooks.enqueueIn(db, key, item);
      out.adyen = true;
      return;
    }
    const data: CardDisputeNotificationData = {
      transactionId: s.tx.transaction_id,
      merchantId: s.tx.merchant_id,
      acquirerId: s.dispute.id,
      acquirerTransactionId: s.tx.id,
      status: s.stage,
      amountCents: Number(s.dispute.amount_cents),
      reasonCode: s.dispute.reason_code,
      ...(DEFENDABLE.has(s.stage) ? { defendBy: new Date(s.dispute.defend_by).toISOString() } : {}),
      at: new Date(s.dispute.updated_at).toISOString(),
    };
    out.notifications.push(await this.notifier.enqueue(db, 'card_dispute.updated', data));
  }

  /** Sends what the committed transaction enqueued (failures stay for the outboxes' own retries). */
  async flush(out: CaseOutbox): Promise<void> {
    await this.notifier.deliverNow(out.notifications);
    if (out.adyen) this.webhooks.kick();
  }
}
