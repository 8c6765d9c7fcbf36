import { DynamicModule, Module } from '@nestjs/common';
import { LoadedConfig } from '../kernel/platform/config/config';
import { ConfigModule } from '../kernel/platform/config/config.module';
import { IdempotencyModule } from '../kernel/platform/idempotency/idempotency.module';
import { PlatformModule, PlatformOptions } from '../kernel/platform/platform.module';
import { AuthModule } from './auth/auth.module';
import { GatewayModule } from './gateway/gateway.module';
import { AccountsModule } from './accounts/accounts.module';
import { TenantsModule } from './tenants/tenants.module';
import { AcquirerModule } from './provider/acquirer/acquirer.module';
import { AcquirerConfig } from './provider/acquirer/acquirer.config';
import { AdyenWebhooksModule } from './provider/acquirer/adyen/adyen-webhooks.module';
import { LinksModule } from './links/links.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { CardsModule } from './cards/cards.module';
import { RefundsModule } from './refunds/refunds.module';
import { ThreeDsModule } from './three-ds/three-ds.module';
import { PixAutomaticModule } from './pix-automatic/pix-automatic.module';
import { TestClockModule } from '../kernel/platform/clock/test-clock.controller';
import { PixApiCobrModule } from './provider/pix-api/pix-api-cobr.module';
import { QueueModule } from '../kernel/platform/queue/queue.module';
import { OperationsModule } from './operations/operations.module';

/** The service's name in its log lines and boot messages. */
export const SERVICE_APP_NAME = 'payments-platform';

@Module({})
export class AppModule {
  static forRoot(config: LoadedConfig, opts: PlatformOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        PlatformModule.forRoot(SERVICE_APP_NAME, opts),
        QueueModule,
        OperationsModule,
        IdempotencyModule,
        TenantsModule,
        GatewayModule,
        AccountsModule,
        AuthModule,
        AcquirerModule,
        // Adyen's webhook route and its job exist only where Adyen is the acquirer
        ...(config.get(AcquirerConfig).provider === 'adyen' ? [AdyenWebhooksModule] : []),
        LinksModule,
        WebhooksModule,
        CardsModule,
        RefundsModule,
        ThreeDsModule,
        PixAutomaticModule,
        PixApiCobrModule,
        TestClockModule,
      ],
    };
  }
}
