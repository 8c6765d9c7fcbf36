import { Global, Module } from '@nestjs/common';
import { RefundTotals } from '../common/contracts/refundable-payments.port';
import { AcquirerModule } from '../provider/acquirer/acquirer.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { DisputesRepository } from './disputes.repository';
import { RefundEvents } from './refund-events';
import { RefundsController } from './refunds.controller';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';
import { ApplyDispute } from './use-cases/apply-dispute';
import { ApplyRefundOutcome } from './use-cases/apply-refund-outcome';
import { CreateRefund } from './use-cases/create-refund';
import { SendRefund } from './use-cases/send-refund';

/**
 * Money going back: refunds of card payments (and the void of a pre-authorization by refund) on
 * either card edge, and card disputes built from the acquirer's notifications. Payments are read
 * through the `CardPaymentRefunds` contract (bound by cards); the totals are offered back through
 * `RefundTotals` (global only to bind it).
 */
@Global()
@Module({
  imports: [AcquirerModule, WebhooksModule],
  controllers: [RefundsController],
  providers: [
    RefundsRepository,
    DisputesRepository,
    RefundEvents,
    RefundsService,
    CreateRefund,
    SendRefund,
    ApplyRefundOutcome,
    ApplyDispute,
    {
      provide: RefundTotals,
      inject: [RefundsRepository],
      useFactory: (r: RefundsRepository) => ({ of: (ids: string[]) => r.totals(ids) }),
    },
  ],
  exports: [RefundTotals],
})
export class RefundsModule {}
