import { Injectable } from '@nestjs/common';
import { Page, page } from '../platform/pagination/pagination';
import { DisputesRepository } from './disputes.repository';
import { disputeView } from './dispute.view';
import { CreateRefundDto, DisputeDto, RefundDto } from './dto/refund.dto';
import { refundView } from './refund.view';
import { RefundErrors } from './refunds.errors';
import { RefundsRepository } from './refunds.repository';
import { CreateRefund } from './use-cases/create-refund';

/** The refund and dispute routes, as views. */
@Injectable()
export class RefundsService {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly disputes: DisputesRepository,
    private readonly creator: CreateRefund,
  ) {}

  async create(tenantId: string, paymentId: string, dto: CreateRefundDto, requestId: string): Promise<RefundDto> {
    return refundView(await this.creator.execute(tenantId, paymentId, dto, requestId));
  }

  async get(tenantId: string, refundId: string): Promise<RefundDto> {
    const r = await this.refunds.get(refundId, tenantId);
    if (!r) throw RefundErrors.error('refund_not_found', 'No such refund for this tenant');
    return refundView(r);
  }

  async list(tenantId: string, paymentId: string | null, q: { limit: number; offset: number }): Promise<Page<RefundDto>> {
    const [items, total] = await this.refunds.list(tenantId, paymentId, q.limit, q.offset);
    return page(items.map(refundView), total, q);
  }

  async getDispute(tenantId: string, disputeId: string): Promise<DisputeDto> {
    const d = await this.disputes.find(tenantId, disputeId);
    if (!d) throw RefundErrors.error('dispute_not_found', 'No such dispute for this tenant');
    return disputeView(d);
  }

  async listDisputes(tenantId: string, paymentId: string | null, q: { limit: number; offset: number }): Promise<Page<DisputeDto>> {
    const [items, total] = await this.disputes.list(tenantId, paymentId, q.limit, q.offset);
    return page(items.map(disputeView), total, q);
  }
}
