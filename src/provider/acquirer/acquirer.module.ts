import { Module } from '@nestjs/common';
import { AcquirerPort } from '../acquirer.port';
import { CardCharges } from './card-charges';
import { AcquirerEvents } from './acquirer-events';
import { AcquirerEventsController, RawBodyCapture } from './acquirer-events.controller';
import { HttpAcquirer } from './http-acquirer';
import { SelfOrigin } from '../../platform/http/self-origin';
import { AdyenConfig } from './adyen/adyen.config';
import { AdyenAcquirer } from './adyen/adyen-acquirer';
import { AdyenBoletos } from './adyen/adyen-boletos';
import { AdyenCheckoutClient } from './adyen/adyen-checkout.client';
import { AdyenStore } from './adyen/adyen-store';
import { AdyenNotifications } from './adyen/adyen-notifications';
import { AdyenWebhooksController } from './adyen/adyen-webhooks.controller';

/**
 * The acquirer client: import this module to inject `AcquirerPort` (links and cards do), and
 * `AcquirerEvents` to receive the acquirer's status notifications (`POST /provider/acquirer-events`,
 * and Adyen's standard webhooks at `POST /provider/adyen/webhooks`). `ACQUIRER_PROVIDER` picks
 * the protocol: `service` (this repository's own, HttpAcquirer) or `adyen` (Checkout v72).
 */
@Module({
  controllers: [AcquirerEventsController, AdyenWebhooksController],
  providers: [
    SelfOrigin,
    HttpAcquirer,
    AdyenStore,
    AdyenCheckoutClient,
    AdyenBoletos,
    AdyenAcquirer,
    AdyenNotifications,
    {
      provide: AcquirerPort,
      inject: [AdyenConfig, HttpAcquirer, AdyenAcquirer],
      useFactory: (config: AdyenConfig, service: HttpAcquirer, adyen: AdyenAcquirer) => (config.provider === 'adyen' ? adyen : service),
    },
    AcquirerEvents,
    RawBodyCapture,
    CardCharges,
  ],
  exports: [AcquirerPort, SelfOrigin, AcquirerEvents, CardCharges, AdyenCheckoutClient],
})
export class AcquirerModule {}
