import { Module } from '@nestjs/common';
import { AcquirerPort } from '../acquirer.port';
import { CardCharges } from './card-charges';
import { AcquirerEvents } from './acquirer-events';
import { AcquirerInbox } from './acquirer-inbox';
import { AcquirerEventsController, RawBodyCapture } from './acquirer-events.controller';
import { HttpAcquirer } from './http-acquirer';
import { AcquirerConfig } from './acquirer.config';
import { AdyenAcquirer } from './adyen/adyen-acquirer';
import { AdyenBoletos } from './adyen/adyen-boletos';
import { AdyenCheckoutClient } from './adyen/adyen-checkout.client';
import { AdyenStore } from './adyen/adyen-store';

/**
 * The acquirer client: import this module to inject `AcquirerPort` (links and cards do), and
 * `AcquirerEvents` to receive the acquirer's status notifications (`POST /provider/acquirer-events`;
 * Adyen's standard webhooks are AdyenWebhooksModule's, mounted only on Adyen). `ACQUIRER_PROVIDER`
 * (AcquirerConfig) picks the protocol: `generic` (this repository's own, HttpAcquirer) or `adyen`
 * (Checkout v72).
 */
@Module({
  controllers: [AcquirerEventsController],
  providers: [
    HttpAcquirer,
    AdyenStore,
    AdyenCheckoutClient,
    AdyenBoletos,
    AdyenAcquirer,
    {
      provide: AcquirerPort,
      inject: [AcquirerConfig, HttpAcquirer, AdyenAcquirer],
      useFactory: (config: AcquirerConfig, generic: HttpAcquirer, adyen: AdyenAcquirer) => (config.provider === 'adyen' ? adyen : generic),
    },
    AcquirerEvents,
    AcquirerInbox,
    RawBodyCapture,
    CardCharges,
  ],
  exports: [AcquirerPort, AcquirerEvents, CardCharges, AdyenCheckoutClient, AdyenStore],
})
export class AcquirerModule {}
