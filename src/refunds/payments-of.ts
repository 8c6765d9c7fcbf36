import { Injectable, Optional } from '@nestjs/common';
import { reverseSplits, SplitReversal } from './domain/split-reversal';
import { RefundsConfig } from './refunds.config';
import {
  BillingRefunds,
  CardPaymentRefunds,
  LinkPaymentRefunds,
  RefundablePayment,
  RefundablePaymentKind,
} from '../../kernel/common/contracts/refundable-payments.port';

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
    private readonly config: RefundsConfig,
    @Optional() private readonly billings?: BillingRefunds,
  ) {}

  /** What a refund of `cents` takes back from each merchant of the payment's split and from the platform's fee (REFUND_PLATFORM_FEE); null without a split. */
  reversalOf(p: RefundablePayment, cents: number): SplitReversal | null {
    return p.allocation ? reverseSplits(cents, p.allocation, this.config.platformFee) : null;
  }

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
