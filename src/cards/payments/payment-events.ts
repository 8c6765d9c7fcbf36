import { Injectable } from '@nestjs/common';

import { EventPublisher } from '../../webhooks/event-publisher';
import { CardPaymentRecord } from './card-payments.repository';
import { paymentView } from './card-payment.view';
import { Tx } from '../../../kernel/platform/database/sql';

export const FINANCIAL_TRANSACTION = 'acquiring.financial_transaction';

/**
 * Writes the acquiring webhook `acquiring.financial_transaction` into the outbox, in the
 * transaction of the payment change that causes it.
 */
@Injectable()
export class PaymentEvents {
  constructor(private readonly publisher: EventPublisher) {}

  async paymentChanged(m: Tx, p: CardPaymentRecord, occurredAt: Date): Promise<void> {
    await this.publisher.publish(m, {
      tenantId: p.tenantId,
      domain: 'acquiring',
      type: FINANCIAL_TRANSACTION,
      idTx: p.id,
      data: { ...paymentView(p) } as unknown as Record<string, unknown>,
      occurredAt,
    });
  }
}
