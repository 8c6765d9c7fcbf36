import { Global, Module } from '@nestjs/common';
import { AcquirerModule } from '../provider/acquirer/acquirer.module';
import { ThreeDsCardSource } from '../../kernel/common/contracts/three-ds-card-source.port';
import { CardPaymentRefunds } from '../../kernel/common/contracts/refundable-payments.port';
import { CardPaymentRefundsOfCards } from './payments/card-payment-refunds';
import { AcquirerReports } from './payments/acquirer-reports';
import { TenantsModule } from '../tenants/tenants.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { HostedCardPageController } from './hosted-page/hosted-card-page.controller';
import { HostedCardPageService } from './hosted-page/hosted-card-page.service';
import { CardAuthorizer } from './payments/card-authorizer';
import { CardPaymentRecovery } from './payments/card-payment-recovery';
import { CardPaymentWriter } from './payments/card-payment-writer';
import { CardPaymentsController } from './payments/card-payments.controller';
import { CardPaymentsRepository, SqlCardPaymentsRepository } from './payments/card-payments.repository';
import { CardPaymentsService } from './payments/card-payments.service';
import { CreateCardPayment } from './payments/create-card-payment';
import { PaymentCardResolver } from './payments/payment-card-resolver';
import { PaymentEvents } from './payments/payment-events';
import { PaymentThreeDsCheck } from './payments/payment-three-ds-check';
import { SettleCardPayment } from './payments/settle-card-payment';
import { CardSessionsController } from './sessions/card-sessions.controller';
import { CardSessionsRepository, SqlCardSessionsRepository } from './sessions/card-sessions.repository';
import { CardSessionsService } from './sessions/card-sessions.service';
import { CardSettingsController } from './settings/card-settings.controller';
import { CardSettingsRepository, SqlCardSettingsRepository } from './settings/card-settings.repository';
import { CardSettingsService } from './settings/card-settings.service';
import { TokenizeCard } from './tokenize/tokenize-card';
import { TokenizeCardController } from './tokenize/tokenize-card.controller';
import { AdminVaultController } from './vault/admin-vault.controller';
import { CardVault } from './vault/card-vault';
import { SecurityCodeStore } from './vault/security-code-store';
import { StoredCardsController } from './vault/stored-cards.controller';
import { StoredCardsService } from './vault/stored-cards.service';
import { SqlStoredCardsRepository, StoredCardsRepository } from './vault/stored-cards.repository';
import { VaultThreeDsCardSource } from './vault/three-ds-card-source';
import { VaultRotation } from './vault/vault-rotation';

/**
 * Hosted card sessions and page, the vault, tokenization and card payments. Global only to
 * bind the three-ds module's ThreeDsCardSource port (3DS resolves cards through it) and the
 * refunds module's CardPaymentRefunds (refunds read card payments through it).
 */
@Global()
@Module({
  imports: [AcquirerModule, WebhooksModule, TenantsModule],
  controllers: [
    AdminVaultController,
    CardSessionsController,
    CardSettingsController,
    TokenizeCardController,
    StoredCardsController,
    HostedCardPageController,
    CardPaymentsController,
  ],
  providers: [
    CardVault,
    VaultRotation,
    SecurityCodeStore,
    TokenizeCard,
    StoredCardsService,
    CardSessionsService,
    CardSettingsService,
    HostedCardPageService,
    PaymentEvents,
    CardPaymentWriter,
    PaymentCardResolver,
    PaymentThreeDsCheck,
    CardAuthorizer,
    CreateCardPayment,
    SettleCardPayment,
    CardPaymentsService,
    CardPaymentRecovery,
    AcquirerReports,
    { provide: StoredCardsRepository, useClass: SqlStoredCardsRepository },
    { provide: CardSessionsRepository, useClass: SqlCardSessionsRepository },
    { provide: CardSettingsRepository, useClass: SqlCardSettingsRepository },
    { provide: CardPaymentsRepository, useClass: SqlCardPaymentsRepository },
    { provide: ThreeDsCardSource, useClass: VaultThreeDsCardSource },
    { provide: CardPaymentRefunds, useClass: CardPaymentRefundsOfCards },
  ],
  exports: [ThreeDsCardSource, CardPaymentRefunds],
})
export class CardsModule {}
