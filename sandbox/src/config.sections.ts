import { ConfigSection } from '../../kernel/platform/config/config';
import { databaseConfig, platformConfig } from '../../kernel/platform/config/platform.config';
import { tracingConfig } from '../../kernel/platform/tracing/tracing.config';
import { sandboxAcquirerConfig } from './acquirer/sandbox-acquirer.config';
import { sandboxAdyenConfig } from './acquirer/adyen/sandbox-adyen.config';
import { sandboxPspConfig } from './psp/sandbox-psp.config';
import { sandboxConfig } from './sandbox.config';
import { sandboxThreeDsConfig } from './three-ds/sandbox-three-ds.config';

/** The sandbox app's config sections: the platform's and each simulated party's. */
export const SANDBOX_CONFIG_SECTIONS: ConfigSection<object>[] = [
  platformConfig,
  databaseConfig,
  tracingConfig,
  sandboxConfig,
  sandboxPspConfig,
  sandboxAcquirerConfig,
  sandboxAdyenConfig,
  sandboxThreeDsConfig,
];
