import { Injectable } from '@nestjs/common';
import { Tx } from '../../kernel/platform/database/sql';
import { EventPublisher } from '../webhooks/event-publisher';
import type { MedCaseDto } from './dto/med-case.dto';
import type { DisputeDto, RefundDto } from './dto/refund.dto';

export const REFUND_EVENT = 'acquiring.refund';
export const DISPUTE_EVENT = 'acquiring.dispute';
export const MED_CASE_EVENT = 'acquiring.med_case';

/**
 * The acquiring webhooks of refunds and disputes, written into the outbox in the transaction of
 * the change that causes them (signed like every acquiring event): `acquiring.refund` at each
 * refund status, `acquiring.dispute` at each new dispute stage, `acquiring.med_case` at each
 * state of a MED devolução.
 */
@Injectable()
export class RefundEvents {
  constructor(private readonly publisher: EventPublisher) {}

  refundChanged(tx: Tx, tenantId: string, refund: RefundDto, occurredAt: Date): Promise<void> {
    return this.publish(tx, tenantId, REFUND_EVENT, refund.refundId, refund, occurredAt);
  }

  disputeChanged(tx: Tx, tenantId: string, dispute: DisputeDto, occurredAt: Date): Promise<void> {
    return this.publish(tx, tenantId, DISPUTE_EVENT, dispute.disputeId, dispute, occurredAt);
  }

  medCaseChanged(tx: Tx, tenantId: string, med: MedCaseDto, occurredAt: Date): Promise<void> {
    return this.publish(tx, tenantId, MED_CASE_EVENT, med.medCaseId, med, occurredAt);
  }

  private async publish(tx: Tx, tenantId: string, type: string, idTx: string, data: object, occurredAt: Date): Promise<void> {
    await this.publisher.publish(tx, {
      tenantId,
      domain: 'acquiring',
      type,
      idTx,
      data: { ...data } as Record<string, unknown>,
      occurredAt,
    });
  }
}
