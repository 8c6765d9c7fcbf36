import { Injectable } from '@nestjs/common';
import { BillingRefunds, RefundablePayment } from '../../kernel/common/contracts/refundable-payments.port';
import { PixDevolucoes, ReceivedPix } from '../provider/pix-devolucoes.port';
import { BillingStatus } from './domain/billing.state-machine';
import { BillingsRepository } from './billings.repository';
import { Billing } from './pix.model';

/**
 * Binds the refunds module's `BillingRefunds`: Pix Automático billings as refunds see them. A
 * billing COMPLETED on BANK_PROVIDER=pix-api was paid by a Pix its cobr's attempt made (the API
 * Pix edge records that Pix, PAGA attempt's endToEndId, when it applies the cobr); it is refundable
 * by devolução of that Pix, up to its valor. Any other billing (not paid, or paid on the `service`
 * protocol, whose Pix this service does not receive) is not refundable here.
 */
@Injectable()
export class BillingRefundsOfPixAutomatic extends BillingRefunds {
  constructor(
    private readonly billings: BillingsRepository,
    private readonly devolucoes: PixDevolucoes,
  ) {
    super();
  }

  async find(tenantId: string | null, billingId: string, recurrenceId?: string): Promise<RefundablePayment | null> {
    const b = await this.billings.find({ id: billingId });
    if (!b || (tenantId !== null && b.tenantId !== tenantId) || (recurrenceId !== undefined && b.recurrenceId !== recurrenceId))
      return null;
    return refundable(b, b.status === BillingStatus.COMPLETED ? await this.devolucoes.paidCobr(b.idTx) : null);
  }

  async findByEndToEndId(endToEndId: string): Promise<RefundablePayment | null> {
    const pix = await this.devolucoes.received(endToEndId);
    const b = pix?.txid ? await this.billings.find({ idTx: pix.txid }) : null;
    return b && refundable(b, b.status === BillingStatus.COMPLETED ? pix : null);
  }
}

function refundable(b: Billing, pix: ReceivedPix | null): RefundablePayment {
  return {
    kind: 'billing',
    rail: 'pix',
    paymentId: b.id,
    tenantId: b.tenantId,
    parentId: b.recurrenceId,
    state: pix ? 'captured' : 'not_refundable',
    status: `billing ${b.status}`,
    capCents: pix?.amountCents ?? b.amountCents,
    acquirerTransactionId: null,
    pix: pix && { endToEndId: pix.endToEndId, settledAt: pix.settledAt },
    allocation: null,
  };
}
