import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { AcquirerNotification, AcquirerNotificationData, CardReport } from '../../../kernel/common/protocols/acquirer-events';
import { AcquirerEvents } from '../../provider/acquirer/acquirer-events';
import { CardCharges } from '../../provider/acquirer/card-charges';
import { CardPaymentTrigger } from '../../provider/acquirer/card-charge.state-machine';
import { CardAuthorizer } from './card-authorizer';
import { CardPaymentsRepository } from './card-payments.repository';
import { SettleCardPayment } from './settle-card-payment';

/**
 * What the acquirer reports about a card payment after answering (`card_transaction.updated`, its
 * status one of the service's CardReport words: each protocol's adapter translated its own),
 * applied to the payment:
 * - a capture it took and then failed (CAPTURE_FAILED) → CAPTURE_FAILED, with the webhook;
 * - a cancel it took and then refused (VOID_FAILED) → VOID_FAILED, with the webhook;
 * - a cancel it took (VOIDED) of a payment held here as authorized (PREAUTH, ACCEPTED) → VOIDED,
 *   with the webhook: the acquirer released it (a cancel whose answer was lost), so it is released here;
 * - an authorization, or a cancel, for a payment still PROCESSING → reconciled now (not at the next run);
 * - an authorization for a payment already FAILED here → cancelled at the acquirer, and logged:
 *   the payer must not be charged for a payment the merchant was told failed.
 */
const TRIGGERS: Readonly<Partial<Record<string, Extract<CardPaymentTrigger, 'capture_failed' | 'void_failed'>>>> = {
  CAPTURE_FAILED: 'capture_failed',
  VOID_FAILED: 'void_failed',
};
const AUTHORIZED = new Set<string>(['AUTHORIZED', 'ACCEPTED', 'PREAUTH'] satisfies CardReport[]);
const HELD = new Set(['PREAUTH', 'ACCEPTED']);

@Injectable()
export class AcquirerReports implements OnModuleInit {
  private readonly logger = new Logger('CardPayments');

  constructor(
    private readonly payments: CardPaymentsRepository,
    private readonly settler: SettleCardPayment,
    private readonly authorizer: CardAuthorizer,
    private readonly charges: CardCharges,
    private readonly events: AcquirerEvents,
  ) {}

  onModuleInit(): void {
    this.events.subscribe('cards', (e) => (e.type === 'card_transaction.updated' ? this.apply(e) : Promise.resolve(false)));
  }

  async apply(e: AcquirerNotification): Promise<boolean> {
    const d = e.data as AcquirerNotificationData;
    const p = await this.payments.findById(d.transactionId);
    if (!p) return false;
    const trigger = TRIGGERS[d.status];
    if (trigger) {
      const changed = await this.settler.reportedFailed(p.id, trigger);
      if (changed)
        this.logger.warn({ paymentId: p.id, status: changed.status }, 'the acquirer reported a capture or cancel it had taken as failed');
    } else if (d.status === 'VOIDED' && HELD.has(p.status)) {
      const changed = await this.settler.reportedVoided(p.id);
      if (changed) this.logger.warn({ paymentId: p.id }, 'the acquirer reported a cancel of a payment held as authorized: voided here too');
    } else if ((AUTHORIZED.has(d.status) || d.status === 'VOIDED') && p.status === 'PROCESSING') {
      await this.authorizer.reconcile(p);
    } else if (AUTHORIZED.has(d.status) && p.status === 'FAILED') {
      this.logger.warn({ paymentId: p.id }, 'a late authorization for a payment already failed: cancelling it at the acquirer');
      await this.charges.cancelUnanswered(p.id);
    }
    return true;
  }
}
