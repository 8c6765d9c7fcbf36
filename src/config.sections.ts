import { ConfigSection } from '../kernel/platform/config/config';
import { authConfig } from './auth/auth.config';
import { gatewayConfig } from './gateway/gateway.config';
import { databaseConfig, platformConfig } from '../kernel/platform/config/platform.config';
import { testClockConfig } from '../kernel/platform/clock/test-clock.config';
import { tracingConfig } from '../kernel/platform/tracing/tracing.config';
import { queueConfig } from '../kernel/platform/queue/queue.config';
import { linksConfig } from './links/links.config';
import { acquirerConfig } from './provider/acquirer/acquirer.config';
import { adyenConfig } from './provider/acquirer/adyen/adyen.config';
import { pixAutomaticConfig } from './pix-automatic/pix-automatic.config';
import { bankProviderConfig } from './provider/bank/bank-provider.config';
import { pixApiCobrConfig } from './provider/pix-api/pix-api-cobr.config';
import { sandboxUrlConfig } from './provider/sandbox-url.config';
import { pixApiConfig } from './provider/pix-api/pix-api.config';
import { pixApiCobConfig } from './provider/pix-api/pix-api-cob.config';
import { webhooksConfig } from './webhooks/webhooks.config';
import { cardsConfig } from './cards/cards.config';
import { refundsConfig } from './refunds/refunds.config';
import { threeDsConfig } from './three-ds/three-ds.config';

/** Every module's config section; the boot validates them all at once. */
export const CONFIG_SECTIONS: ConfigSection<object>[] = [
  platformConfig,
  databaseConfig,
  tracingConfig,
  testClockConfig,
  queueConfig,
  authConfig,
  gatewayConfig,
  acquirerConfig,
  adyenConfig,
  webhooksConfig,
  linksConfig,
  cardsConfig,
  refundsConfig,
  threeDsConfig,
  sandboxUrlConfig,
  bankProviderConfig,
  pixApiConfig,
  pixApiCobConfig,
  pixApiCobrConfig,
  pixAutomaticConfig,
];
