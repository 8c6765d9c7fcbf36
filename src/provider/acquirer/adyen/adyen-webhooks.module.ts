import { Module } from '@nestjs/common';
import { AcquirerModule } from '../acquirer.module';
import { AdyenNotifications } from './adyen-notifications';
import { AdyenWebhooksController } from './adyen-webhooks.controller';

/**
 * Adyen's standard webhooks: the receiver (`POST /provider/adyen/webhooks`) and the job that
 * applies what it stored. Mounted only when Adyen is the acquirer (`ACQUIRER_PROVIDER=adyen`, see
 * AppModule): on the generic protocol the route does not exist and nothing polls for Adyen.
 */
@Module({
  imports: [AcquirerModule],
  controllers: [AdyenWebhooksController],
  providers: [AdyenNotifications],
})
export class AdyenWebhooksModule {}
