import { Injectable } from '@nestjs/common';
import { Tx } from '../platform/database/sql';
import { EventPublisher } from '../webhooks/event-publisher';
import type { DisputeDto, RefundDto } from './dto/refund.dto';

export const REFUND_EVENT = 'acquiring.refund';
export const DISPUTE_EVENT = 'acquiring.dispute';

/**
 * The acquiring webhooks of refunds and disputes, written into the outbox in the transaction of
 * the change that causes them (signed like every acquiring event): `acquiring.refund` at each
 * refund status, `acquiring.dispute` at each new dispute stage.
 */
@Injectable()
export class RefundEvents {
  constructor(private readonly publisher: EventPublisher) {}

  async refundChanged(tx: Tx, tenantId: string, refund: RefundDto, occurredAt: Date): Promise<void> {
    await this.publisher.publish(tx, {
      tenantId,
      domain: 'acquiring',
      type: REFUND_EVENT,
      idTx: refund.refundId,
      data: { ...refund } as unknown as Record<string, unknown>,
      occurredAt,
    });
  }

  async disputeChanged(tx: Tx, tenantId: string, dispute: DisputeDto, occurredAt: Date): Promise<void> {
    await this.publisher.publish(tx, {
      tenantId,
      domain: 'acquiring',
      type: DISPUTE_EVENT,
      idTx: dispute.disputeId,
      data: { ...dispute } as unknown as Record<string, unknown>,
      occurredAt,
    });
  }
}
