import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { CardAuthorizationRequest, CardAuthorizationResult } from '../../provider/acquirer.port';
import { CardCharges, OUTCOME_TRIGGER } from '../../provider/acquirer/card-charges';

import { CardPaymentRecord, CardPaymentsRepository } from './card-payments.repository';
import { sourcesOf, transition } from '../../provider/acquirer/card-charge.state-machine';
import { CardPaymentWriter } from './card-payment-writer';
import { ChargeCard } from './payment-card-resolver';
import { transaction } from '../../../kernel/platform/database/sql';

/**
 * Sends a PROCESSING payment to the acquirer and records the answer with its webhook. The
 * acquirer treats a repeated transactionId (our payment id) as the same transaction, so the
 * retries of one call never charge twice.
 */
@Injectable()
export class CardAuthorizer {
  private readonly logger = new Logger('CardPayments');

  constructor(
    private readonly ds: DataSource,
    private readonly writer: CardPaymentWriter,
    private readonly payments: CardPaymentsRepository,
    private readonly clock: Clock,
    private readonly charges: CardCharges,
  ) {}

  async authorize(p: CardPaymentRecord, card: ChargeCard, threeDs?: CardAuthorizationRequest['threeDs']): Promise<CardPaymentRecord> {
    const result = await this.charges.authorize({
      transactionId: p.id,
      merchantId: p.documentId ?? p.tenantId,
      amountCents: p.amountCents,
      installments: p.installments,
      capture: p.captureMode,
      card: { pan: card.pan, expMonth: card.expMonth, expYear: card.expYear, cvv: card.securityCode },
      threeDs,
    });
    if (result.status === 'UNKNOWN') {
      // it may be authorized at the acquirer: never FAILED on a guess; the recovery run settles it
      this.logger.warn({ paymentId: p.id }, 'card authorization unanswered and not settled at the acquirer; left PROCESSING');
      return p;
    }
    if (result.status === 'FAILED' && !result.acquirerTransactionId)
      this.logger.warn({ paymentId: p.id, reason: result.reason }, 'card authorization failed');
    return this.record(p, result);
  }

  /**
   * Reconciliation of a payment whose answer was lost (the process died while asking, or no
   * answer came): the acquirer is asked what it holds for our transaction id; found → that result
   * is recorded; none → the attempt is cancelled at the acquirer, then FAILED
   * (`acquirer_no_answer`), so nobody is charged minutes later without knowing it. When the
   * acquirer cannot be reached or cannot cancel, the payment stays PROCESSING for the next run.
   */
  async reconcile(p: CardPaymentRecord): Promise<CardPaymentRecord> {
    let found: CardAuthorizationResult | null;
    try {
      found = await this.charges.reconcile(p.id);
    } catch {
      return p;
    }
    return this.record(p, found ?? { acquirerTransactionId: '', status: 'FAILED', reason: 'acquirer_no_answer' });
  }

  /** PROCESSING → the acquirer's answer, with its webhook, in one transaction (conditional UPDATE). */
  private async record(p: CardPaymentRecord, result: CardAuthorizationResult): Promise<CardPaymentRecord> {
    const trigger = OUTCOME_TRIGGER[result.status] ?? 'failed';
    const to = transition('PROCESSING', trigger)!;
    const approved = to === 'ACCEPTED' || to === 'PREAUTH';
    const now = this.clock.now();
    const done = await transaction(this.ds, (m) =>
      this.writer.change(m, p.id, {
        to,
        allowedFrom: sourcesOf(trigger),
        now,
        acquirerTransactionId: result.acquirerTransactionId || null,
        authorizationCode: result.authorizationCode ?? null,
        reason: approved ? null : (result.reason ?? null),
        authorizedOn: approved ? this.clock.today() : null,
      }),
    );
    // Someone else (the recovery run) finished it first: answer what is stored.
    return done ?? (await this.payments.find(this.ds, p.tenantId, p.id)) ?? p;
  }
}
