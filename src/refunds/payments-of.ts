import { Injectable, Optional } from '@nestjs/common';
import {
  BillingRefunds,
  CardPaymentRefunds,
  LinkPaymentRefunds,
  RefundablePayment,
  RefundablePaymentKind,
} from '../common/contracts/refundable-payments.port';

/** Which payment a refund route names: its kind, its id and (for a link's or a recurrence's) its parent. */
export interface PaymentRef {
  kind: RefundablePaymentKind;
  paymentId: string;
  parentId?: string;
}

/**
 * The payments refunds may give back, read through the contracts their owners bind (cards,
 * links, pix-automatic): the one place that picks the contract by the payment's kind.
 */
@Injectable()
export class PaymentsOf {
  constructor(
    private readonly cards: CardPaymentRefunds,
    private readonly links: LinkPaymentRefunds,
    @Optional() private readonly billings?: BillingRefunds,
  ) {}

  find(tenantId: string | null, ref: PaymentRef): Promise<RefundablePayment | null> {
    switch (ref.kind) {
      case 'card_payment':
        return this.cards.find(tenantId, ref.paymentId);
      case 'link_payment':
        return this.links.find(tenantId, ref.paymentId, ref.parentId);
      case 'billing':
        return this.billings ? this.billings.find(tenantId, ref.paymentId, ref.parentId) : Promise.resolve(null);
    }
  }

  /** The payment a received Pix paid: our transaction (a link payment or boleto) when it paid a charge of ours, else a billing. */
  async ofPix(transactionId: string | null, endToEndId: string): Promise<RefundablePayment | null> {
    if (transactionId) return this.links.find(null, transactionId);
    return this.billings ? this.billings.findByEndToEndId(endToEndId) : null;
  }

  /** Releases a card pre-authorization at the acquirer (a refund of an uncaptured card payment). */
  cancelAuthorization(tenantId: string, paymentId: string): Promise<void> {
    return this.cards.cancelAuthorization(tenantId, paymentId);
  }
}
