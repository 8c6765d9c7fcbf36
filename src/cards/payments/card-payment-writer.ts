import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsService } from '../../../kernel/platform/metrics/metrics.service';

import { CardPaymentRecord, CardPaymentsRepository, NewCardPayment, PaymentChange } from './card-payments.repository';
import { isTerminal } from '../../provider/acquirer/card-charge.state-machine';
import { PaymentEvents } from './payment-events';
import { Tx } from '../../../kernel/platform/database/sql';

/** Every card payment write goes with its webhook in the same transaction. */
@Injectable()
export class CardPaymentWriter {
  private readonly outcomes: Counter<'status'>;

  constructor(
    private readonly payments: CardPaymentsRepository,
    private readonly events: PaymentEvents,
    metrics: MetricsService,
  ) {
    this.outcomes = new Counter({
      name: 'card_payment_transitions_total',
      help: 'Card payments entering each status (PROCESSING, ACCEPTED, PREAUTH, CAPTURED, VOIDED, *_REJECTED, FAILED)',
      labelNames: ['status'] as const,
      registers: [metrics.registry],
    });
  }

  /** Inserts a new attempt; a payment born final (3DS refusal) publishes at once. */
  async insert(m: Tx, p: NewCardPayment, tenantId: string): Promise<CardPaymentRecord> {
    await this.payments.insert(m, p);
    const rec = (await this.payments.find(m, tenantId, p.id))!;
    if (isTerminal(rec.status)) await this.events.paymentChanged(m, rec, p.now);
    this.outcomes.inc({ status: rec.status });
    return rec;
  }

  /** Conditional status change plus its webhook; null when the payment was no longer in an allowed status. */
  async change(m: Tx, id: string, c: PaymentChange): Promise<CardPaymentRecord | null> {
    const rec = await this.payments.change(m, id, c);
    if (rec) {
      await this.events.paymentChanged(m, rec, c.now);
      this.outcomes.inc({ status: rec.status });
    }
    return rec;
  }
}
