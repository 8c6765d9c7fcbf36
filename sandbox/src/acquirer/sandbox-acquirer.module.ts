import { Module } from '@nestjs/common';
import { AcquirerCardApiController, AcquirerChargesApiController } from './acquirer-api.controller';
import { BankAppController } from './bank-app.controller';
import { AcquirerKeyGuard } from './sandbox-acquirer.guard';
import { SandboxEnabledGuard } from '../sandbox-enabled.guard';
import { SandboxAcquirerTicker } from './sandbox-acquirer.ticker';
import { SandboxBoletoService } from './sandbox-boleto.service';
import { SandboxCardService } from './sandbox-card.service';
import { SandboxNotifier } from './sandbox-notifier';
import { SandboxPixService } from './sandbox-pix.service';
import { SandboxAdyenController } from './adyen/sandbox-adyen.controller';
import { SandboxAdyenCheckout } from './adyen/sandbox-adyen-checkout';
import { SandboxAdyenWebhooks } from './adyen/sandbox-adyen-webhooks';
import { SandboxAdyenBoletos } from './adyen/sandbox-adyen-boletos';
import { SandboxAdyenThreeDs } from './adyen/sandbox-adyen-three-ds';
import { SandboxThreeDsModule } from '../three-ds/sandbox-three-ds.module';
import { SandboxAdyenRefunds } from './adyen/sandbox-adyen-refunds';
import { SandboxCaseReports } from './sandbox-case-reports';
import { SandboxCardCasesTicker } from './sandbox-card-cases.ticker';
import { SandboxDisputes } from './sandbox-disputes.service';
import { SandboxDisputesController } from './sandbox-disputes.controller';
import { SandboxRefunds } from './sandbox-refunds.service';

/**
 * The simulated acquirer (card, Pix, boleto), in process under `/sandbox/acquirer`, reached by
 * the service over real HTTP. It imports no feature module: it knows the service only by the
 * URL it notifies.
 */
@Module({
  imports: [SandboxThreeDsModule],
  controllers: [
    AcquirerCardApiController,
    AcquirerChargesApiController,
    BankAppController,
    SandboxAdyenController,
    SandboxDisputesController,
  ],
  providers: [
    SandboxCardService,
    SandboxPixService,
    SandboxBoletoService,
    SandboxNotifier,
    SandboxAdyenCheckout,
    SandboxAdyenBoletos,
    SandboxAdyenThreeDs,
    SandboxAdyenWebhooks,
    SandboxAdyenRefunds,
    SandboxCaseReports,
    SandboxRefunds,
    SandboxDisputes,
    SandboxAcquirerTicker,
    SandboxCardCasesTicker,
    AcquirerKeyGuard,
    SandboxEnabledGuard,
  ],
  exports: [SandboxPixService, SandboxBoletoService, SandboxNotifier],
})
export class SandboxAcquirerModule {}
