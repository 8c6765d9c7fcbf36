import { acquirerProviderOf } from '../../../../kernel/common/protocols/acquirer-provider';
import { defineConfig } from '../../../../kernel/platform/config/config';
import { sandboxUrlOf } from '../../sandbox-url.config';

/** Path of the sandbox's Adyen face under the sandbox app's origin (Checkout v72). */
export const SANDBOX_ADYEN_CHECKOUT_PATH = '/sandbox/adyen/checkout/v72';

/**
 * The card edge on Adyen. `ADYEN_CHECKOUT_URL` is Adyen's test URL (`https://checkout-test.adyen.com/v72`)
 * or the live one with the account's prefix; unset, the sandbox's Adyen face at this service's own
 * origin. The API key, the webhook HMAC key and the webhook Basic-auth password are secrets:
 * required in production, generated in development and test (the sandbox reads the same ones).
 */
export class AdyenConfig {
  checkoutUrl: string | undefined;
  apiKey: string;
  merchantAccount: string;
  /** Hex as Adyen hands it out (a generated development value is base64url). */
  hmacKey: string;
  webhookUsername: string;
  webhookPassword: string;
  /** Where a shopper returns after a redirect; Adyen requires one on every `/payments` (default PUBLIC_URL). */
  returnUrl: string;
  /** How a webhook item's application is retried on the job queue before it is dead. */
  inbox: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
}

export const adyenConfig = defineConfig(AdyenConfig, (env) => {
  // the choice itself is AcquirerConfig's (which reports a bad value); here only whether it is Adyen
  const adyen = acquirerProviderOf(env.raw('ACQUIRER_PROVIDER')) === 'adyen';
  const merchantAccount = env.str('ADYEN_MERCHANT_ACCOUNT', 'SandboxMerchantBR');
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(merchantAccount))
    env.problems.push(`ADYEN_MERCHANT_ACCOUNT must be an Adyen merchant account code, got "${merchantAccount}"`);
  // In production the Adyen secrets are required only when Adyen is the acquirer; unset, the
  // webhook route refuses everything (an empty password never matches).
  const needed = adyen || env.runtime !== 'production';
  const secret = (name: string, minLength: number) => (needed ? env.secret(name, { minLength }) : (env.raw(name) ?? ''));
  const checkoutUrl = env.url('ADYEN_CHECKOUT_URL');
  if (adyen && !checkoutUrl && !sandboxUrlOf(env))
    env.problems.push(
      "ADYEN_CHECKOUT_URL is required when no sandbox is configured (SANDBOX_URL): the default is the sandbox's Adyen face",
    );
  return {
    checkoutUrl,
    apiKey: secret('ADYEN_API_KEY', 24),
    merchantAccount,
    hmacKey: secret('ADYEN_HMAC_KEY', 32),
    webhookUsername: env.str('ADYEN_WEBHOOK_USERNAME', 'adyen-webhooks'),
    webhookPassword: secret('ADYEN_WEBHOOK_PASSWORD', 16),
    returnUrl: env.url('ADYEN_RETURN_URL') ?? env.raw('PUBLIC_URL') ?? `http://localhost:${env.raw('PORT') ?? '3000'}`,
    inbox: {
      maxAttempts: env.int('ADYEN_WEBHOOK_MAX_ATTEMPTS', 8, 1, 100),
      baseDelayMs: env.int('ADYEN_WEBHOOK_RETRY_BASE_MS', 5000, 10, 3_600_000),
      maxDelayMs: 3_600_000,
    },
  };
});
