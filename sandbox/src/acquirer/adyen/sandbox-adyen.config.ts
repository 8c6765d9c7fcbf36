import { acquirerProviderOf } from '../../../../kernel/common/protocols/acquirer-provider';
import { defineConfig } from '../../../../kernel/platform/config/config';
import { sandboxEnabled } from '../../sandbox.config';

/**
 * The sandbox's Adyen face. It reads the same variables as the service's Adyen client
 * (`ADYEN_API_KEY`, `ADYEN_MERCHANT_ACCOUNT`, `ADYEN_HMAC_KEY`, `ADYEN_WEBHOOK_USERNAME`,
 * `ADYEN_WEBHOOK_PASSWORD`), so in development and test both sides share the generated values;
 * the sandbox imports nothing of the service.
 */
export class SandboxAdyenConfig {
  apiKey: string;
  merchantAccount: string;
  hmacKey: string;
  webhookUsername: string;
  webhookPassword: string;
  /** Where its webhooks go; unset = this service's own `/provider/adyen/webhooks` when `toService`, else nowhere. */
  webhookUrl: string | undefined;
  /** This service's acquirer is Adyen (ACQUIRER_PROVIDER=adyen): its own webhook route exists and takes the face's webhooks. */
  toService: boolean;
}

export const sandboxAdyenConfig = defineConfig(SandboxAdyenConfig, (env) => {
  // with the sandbox off (production by default), or a production sandbox whose acquirer is not
  // Adyen, it needs none of the secrets (an empty API key refuses every call)
  const toService = acquirerProviderOf(env.raw('ACQUIRER_PROVIDER')) === 'adyen';
  const on = sandboxEnabled(env) && (env.runtime !== 'production' || toService);
  const secret = (name: string, minLength: number) => (on ? env.secret(name, { minLength }) : (env.raw(name) ?? ''));
  return {
    apiKey: secret('ADYEN_API_KEY', 24),
    merchantAccount: env.str('ADYEN_MERCHANT_ACCOUNT', 'SandboxMerchantBR'),
    hmacKey: secret('ADYEN_HMAC_KEY', 32),
    webhookUsername: env.str('ADYEN_WEBHOOK_USERNAME', 'adyen-webhooks'),
    webhookPassword: secret('ADYEN_WEBHOOK_PASSWORD', 16),
    webhookUrl: env.url('SANDBOX_ADYEN_WEBHOOK_URL'),
    toService,
  };
});
