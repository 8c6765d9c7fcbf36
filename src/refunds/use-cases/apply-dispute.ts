import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AcquirerNotification } from '../../../kernel/common/protocols/acquirer-events';
import type { CardDisputeNotificationData } from '../../../kernel/common/protocols/acquirer-refunds';
import { Clock } from '../../../kernel/platform/clock/clock';
import { transaction } from '../../../kernel/platform/database/sql';
import { AcquirerEvents } from '../../provider/acquirer/acquirer-events';
import { disputeState, withStage } from '../domain/dispute';
import { PaymentsOf } from '../payments-of';
import { disputeView } from '../dispute.view';
import { DisputesRepository } from '../disputes.repository';
import { RefundEvents } from '../refund-events';

/**
 * Builds a payment's dispute from the acquirer's `card_dispute.updated` notifications (the
 * service protocol's, and Adyen's dispute webhooks read by the Adyen edge): each stage is kept,
 * the state is derived from all of them (so order and repeats do not matter), what the dispute
 * holds is taken from what can still be refunded, and a new stage sends `acquiring.dispute`.
 */
@Injectable()
export class ApplyDispute implements OnModuleInit {
  private readonly logger = new Logger('Disputes');

  constructor(
    private readonly ds: DataSource,
    private readonly disputes: DisputesRepository,
    private readonly payments: PaymentsOf,
    private readonly events: RefundEvents,
    private readonly clock: Clock,
    private readonly acquirerEvents: AcquirerEvents,
  ) {}

  onModuleInit(): void {
    this.acquirerEvents.subscribe('disputes', (e) => (e.type === 'card_dispute.updated' ? this.apply(e) : Promise.resolve(false)));
  }

  async apply(e: AcquirerNotification): Promise<boolean> {
    const d = e.data as CardDisputeNotificationData;
    // a card payment of the API, or a link's card payment: both are charged with our id as the reference
    const p =
      (await this.payments.find(null, { kind: 'card_payment', paymentId: d.transactionId })) ??
      (await this.payments.find(null, { kind: 'link_payment', paymentId: d.transactionId }));
    if (!p) return false;
    await transaction(this.ds, async (tx) => {
      const now = this.clock.now();
      const current = await this.disputes.lockOrCreate(tx, p, randomUUID(), d.acquirerId, now);
      const stages = withStage(current.stages, { stage: d.status, at: d.at || e.occurredAt, amountCents: d.amountCents });
      if (stages.length === current.stages.length) return; // this stage was applied already
      const state = disputeState(stages)!;
      const saved = await this.disputes.save(
        tx,
        current,
        stages,
        state,
        { reasonCode: d.reasonCode || null, defendBy: d.defendBy ?? null },
        now,
      );
      if (saved.heldCents < state.heldCents)
        this.logger.warn(
          { disputeId: saved.id, paymentId: p.paymentId, disputed: state.heldCents, held: saved.heldCents },
          'a chargeback asks back more than refunds left of the payment: the money went back twice',
        );
      await this.events.disputeChanged(tx, p.tenantId, disputeView(saved), now);
    });
    return true;
  }
}
