import { ConfigSection } from './platform/config/config';
import { authConfig } from './auth/auth.config';
import { gatewayConfig } from './gateway/gateway.config';
import { databaseConfig, platformConfig } from './platform/config/platform.config';
import { tracingConfig } from './platform/tracing/tracing.config';
import { linksConfig } from './links/links.config';
import { acquirerConfig } from './provider/acquirer/acquirer.config';
import { adyenConfig } from './provider/acquirer/adyen/adyen.config';
import { pixAutomaticConfig } from './pix-automatic/pix-automatic.config';
import { bankProviderConfig } from './provider/bank/bank-provider.config';
import { pixApiCobrConfig } from './provider/pix-api/pix-api-cobr.config';
import { sandboxConfig } from './sandbox/sandbox.config';
import { sandboxPspConfig } from './sandbox/psp/sandbox-psp.config';
import { pixApiConfig } from './provider/pix-api/pix-api.config';
import { pixApiCobConfig } from './provider/pix-api/pix-api-cob.config';
import { sandboxAcquirerConfig } from './sandbox/acquirer/sandbox-acquirer.config';
import { sandboxAdyenConfig } from './sandbox/acquirer/adyen/sandbox-adyen.config';
import { webhooksConfig } from './webhooks/webhooks.config';
import { cardsConfig } from './cards/cards.config';
import { refundsConfig } from './refunds/refunds.config';
import { threeDsConfig } from './three-ds/three-ds.config';
import { sandboxThreeDsConfig } from './sandbox/three-ds/sandbox-three-ds.config';

/** Every module's config section; the boot validates them all at once. */
export const CONFIG_SECTIONS: ConfigSection<object>[] = [
  platformConfig,
  databaseConfig,
  tracingConfig,
  authConfig,
  gatewayConfig,
  acquirerConfig,
  adyenConfig,
  sandboxAcquirerConfig,
  sandboxAdyenConfig,
  webhooksConfig,
  linksConfig,
  cardsConfig,
  refundsConfig,
  threeDsConfig,
  sandboxThreeDsConfig,
  bankProviderConfig,
  pixApiConfig,
  pixApiCobConfig,
  pixApiCobrConfig,
  pixAutomaticConfig,
  sandboxConfig,
  sandboxPspConfig,
];
