import { Injectable } from '@nestjs/common';
import { Page, page } from '../../kernel/platform/pagination/pagination';
import { DisputesRepository } from './disputes.repository';
import { MedCaseDto } from './dto/med-case.dto';
import { medCaseView } from './med-case.view';
import { MedCasesRepository } from './med-cases.repository';
import { PaymentRef } from './payments-of';
import { disputeView } from './dispute.view';
import { CreateRefundDto, DisputeDto, RefundDto } from './dto/refund.dto';
import { refundView } from './refund.view';
import { RefundErrors } from './refunds.errors';
import { RefundsRepository } from './refunds.repository';
import { CreateRefund } from './use-cases/create-refund';
import { SettlePayout } from './use-cases/settle-payout';

/** The refund, dispute and MED case routes, as views. */
@Injectable()
export class RefundsService {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly disputes: DisputesRepository,
    private readonly creator: CreateRefund,
    private readonly medCases: MedCasesRepository,
    private readonly payouts: SettlePayout,
  ) {}

  async confirmPayout(tenantId: string, refundId: string, endToEndId: string): Promise<RefundDto> {
    return refundView(await this.payouts.confirm(tenantId, refundId, endToEndId));
  }

  async cancelPayout(tenantId: string, refundId: string): Promise<RefundDto> {
    return refundView(await this.payouts.cancel(tenantId, refundId));
  }

  async create(tenantId: string, ref: PaymentRef, dto: CreateRefundDto, requestId: string): Promise<RefundDto> {
    return refundView(await this.creator.execute(tenantId, ref, dto, requestId));
  }

  async get(tenantId: string, refundId: string): Promise<RefundDto> {
    const r = await this.refunds.get(refundId, tenantId);
    if (!r) throw RefundErrors.error('refund_not_found', 'No such refund for this tenant');
    return refundView(r);
  }

  async list(
    tenantId: string,
    of: { paymentId?: string | null; parentId?: string | null },
    q: { limit: number; offset: number },
  ): Promise<Page<RefundDto>> {
    const [items, total] = await this.refunds.list(tenantId, of, q.limit, q.offset);
    return page(items.map(refundView), total, q);
  }

  async getMedCase(tenantId: string, id: string): Promise<MedCaseDto> {
    const m = await this.medCases.find(tenantId, id);
    if (!m) throw RefundErrors.error('med_case_not_found', 'No such MED case for this tenant');
    return medCaseView(m);
  }

  async listMedCases(tenantId: string, paymentId: string | null, q: { limit: number; offset: number }): Promise<Page<MedCaseDto>> {
    const [items, total] = await this.medCases.list(tenantId, paymentId, q.limit, q.offset);
    return page(items.map(medCaseView), total, q);
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
