import { Global, Module } from '@nestjs/common';
import { RefundTotals } from '../../kernel/common/contracts/refundable-payments.port';
import { AcquirerModule } from '../provider/acquirer/acquirer.module';
import { PixChargesModule } from '../provider/pix-charges.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { BillingRefundsController } from './billing-refunds.controller';
import { DisputesRepository } from './disputes.repository';
import { MedCasesRepository } from './med-cases.repository';
import { PaymentsOf } from './payments-of';
import { RefundEvents } from './refund-events';
import { PixRefundsController } from './pix-refunds.controller';
import { RefundsController } from './refunds.controller';
import { RefundsRepository } from './refunds.repository';
import { RefundsService } from './refunds.service';
import { ApplyDispute } from './use-cases/apply-dispute';
import { ApplyMedCase, ApplyPixDevolucoes } from './use-cases/apply-pix-devolucoes';
import { ApplyRefundOutcome } from './use-cases/apply-refund-outcome';
import { RefundRails } from './use-cases/refund-rails';
import { CreateRefund } from './use-cases/create-refund';
import { SendRefund } from './use-cases/send-refund';
import { SettlePayout } from './use-cases/settle-payout';

/**
 * Money going back: refunds of card payments (and the void of a pre-authorization by refund) on
 * either card edge, API Pix devoluções of Pix received on links (and boletos paid by Pix), card
 * disputes built from the acquirer's notifications, and MED cases (devoluções the payer's side
 * started). Payments are read through the contracts of `common/contracts/refundable-payments.port.ts`
 * (bound by cards, links, pix-automatic); the totals are offered back through `RefundTotals`
 * (global only to bind it).
 */
@Global()
@Module({
  imports: [AcquirerModule, PixChargesModule, WebhooksModule],
  controllers: [RefundsController, PixRefundsController, BillingRefundsController],
  providers: [
    RefundsRepository,
    DisputesRepository,
    RefundEvents,
    RefundsService,
    CreateRefund,
    SendRefund,
    SettlePayout,
    ApplyRefundOutcome,
    ApplyDispute,
    PaymentsOf,
    RefundRails,
    MedCasesRepository,
    ApplyMedCase,
    ApplyPixDevolucoes,
    {
      provide: RefundTotals,
      inject: [RefundsRepository],
      useFactory: (r: RefundsRepository) => ({
        of: (ids: string[]) => r.totals(ids),
        ofParents: (ids: string[]) => r.totalsOfParents(ids),
      }),
    },
  ],
  exports: [RefundTotals],
})
export class RefundsModule {}
