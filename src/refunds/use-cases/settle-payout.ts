import { Injectable } from '@nestjs/common';
import { RefundErrors } from '../refunds.errors';
import { RefundRecord, RefundsRepository } from '../refunds.repository';
import { ApplyRefundOutcome } from './apply-refund-outcome';

/**
 * The end of a payout refund (a boleto paid by bank clearing): the tenant paid the payer out with a
 * Pix of its own and confirms it with that Pix's end-to-end id (SUCCEEDED, the id as the refund's
 * provider reference), or gives up on it (FAILED `payout_cancelled`, its amount refundable again).
 * Either goes through the refund's one outcome path: a conditional update, the balance, the
 * `acquiring.refund` webhook.
 */
@Injectable()
export class SettlePayout {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly outcome: ApplyRefundOutcome,
  ) {}

  async confirm(tenantId: string, refundId: string, endToEndId: string): Promise<RefundRecord> {
    await this.pending(tenantId, refundId);
    return this.settled(refundId, await this.outcome.apply(refundId, { trigger: 'succeeded', providerReference: endToEndId }));
  }

  async cancel(tenantId: string, refundId: string): Promise<RefundRecord> {
    await this.pending(tenantId, refundId);
    return this.settled(refundId, await this.outcome.apply(refundId, { trigger: 'failed', failureCode: 'payout_cancelled' }));
  }

  private async pending(tenantId: string, refundId: string): Promise<RefundRecord> {
    const r = await this.refunds.get(refundId, tenantId);
    if (!r) throw RefundErrors.error('refund_not_found', 'No such refund for this tenant');
    if (r.rail !== 'payout')
      throw RefundErrors.error('invalid_refund_status', 'Only a payout refund (a boleto paid by bank clearing) is settled by you');
    if (r.status !== 'PENDING') throw RefundErrors.error('invalid_refund_status', `This payout refund is ${r.status} already`);
    return r;
  }

  /** The outcome's answer, or (another request settled it first) the refund as it stands. */
  private async settled(refundId: string, after: RefundRecord | null): Promise<RefundRecord> {
    if (after) return after;
    const now = (await this.refunds.get(refundId))!;
    throw RefundErrors.error('invalid_refund_status', `This payout refund is ${now.status} already`);
  }
}
