import { Global, Module } from '@nestjs/common';
import { AcquirerModule } from '../provider/acquirer/acquirer.module';
import { PixChargesModule } from '../provider/pix-charges.module';
import { TenantsModule } from '../tenants/tenants.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { CheckoutController } from './checkout/checkout.controller';
import { CheckoutService } from './checkout/checkout.service';
import { SdkController } from './checkout/sdk.controller';
import { EmailOutbox } from './email/email-outbox';
import { FeesService } from './fees/fees.service';
import { AcquiringController, LinksController } from './links.controller';
import { AcquirerEventsSubscriber, LinkExpiryJob } from './links.timers';
import { LinkLifecycle } from './links/link-lifecycle';
import { LinksRepository, SqlLinksRepository } from './links/links.repository';
import { LinksService } from './links/links.service';
import { LinkViews } from './links/link-views';
import { AdminMerchantsController } from './merchants/admin-merchants.controller';
import { MerchantsRepository, SqlMerchantsRepository } from './merchants/merchants.repository';
import { MerchantsService } from './merchants/merchants.service';
import { LinksHousekeeping } from './payments/links-housekeeping';
import { PaymentEffects } from './payments/payment-effects';
import { PaymentLedger } from './payments/payment-ledger';
import { PaymentsRepository, SqlPaymentsRepository } from './payments/payments.repository';
import { StartPayment } from './payments/start-payment';
import { PaymentInstruments } from './payments/payment-instruments';
import { LinkPaymentRefunds } from '../../kernel/common/contracts/refundable-payments.port';
import { LinkPaymentRefundsOfLinks } from './payments/link-payment-refunds';

/**
 * Payment links: the tenant API, merchants and fees, the hosted checkout and its SDK, the
 * payments ledger (items, metrics, maxUses holds), acquiring webhooks and e-mail notices; binds
 * the refunds module's LinkPaymentRefunds (global only to bind it).
 */
@Global()
@Module({
  imports: [AcquirerModule, PixChargesModule, WebhooksModule, TenantsModule],
  controllers: [LinksController, AcquiringController, AdminMerchantsController, CheckoutController, SdkController],
  providers: [
    { provide: LinksRepository, useClass: SqlLinksRepository },
    { provide: MerchantsRepository, useClass: SqlMerchantsRepository },
    { provide: PaymentsRepository, useClass: SqlPaymentsRepository },
    MerchantsService,
    FeesService,
    LinksService,
    LinkViews,
    LinkLifecycle,
    PaymentEffects,
    PaymentLedger,
    StartPayment,
    PaymentInstruments,
    LinksHousekeeping,
    CheckoutService,
    EmailOutbox,
    AcquirerEventsSubscriber,
    LinkExpiryJob,
    { provide: LinkPaymentRefunds, useClass: LinkPaymentRefundsOfLinks },
  ],
  exports: [LinkPaymentRefunds],
})
export class LinksModule {}
