import { Exchange, ProviderProxy } from '../support/provider-proxy';

/** Known Adyen settings of the tests (the HMAC key is Adyen's documented example key). */
export const ADYEN_API_KEY = 'adyen-test-api-key-0123456789abcdef';
export const ADYEN_HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
export const ADYEN_WEBHOOK_PASSWORD = 'adyen-webhook-password-0123';

export const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
/** The Basic credentials the sandbox sends and the service expects. */
export const ADYEN_WEBHOOK_AUTH = basic('adyen-webhooks', ADYEN_WEBHOOK_PASSWORD);

/** Polls until `what` answers something truthy (at most `ms`). */
export async function until<T>(what: () => Promise<T | null | undefined | false>, ms = 10000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Two recording hops around the app on ACQUIRER_PROVIDER=adyen: `checkout` between the adapter
 * and the sandbox's Adyen face (every request and answer in `sent`), `hooks` between the
 * sandbox's webhooks and the service's receiver (in `delivered`). Start them before the app (the
 * URLs are configuration), then `aim` them at the two apps.
 */
export class AdyenHops {
  readonly checkout = new ProviderProxy();
  readonly hooks = new ProviderProxy();
  readonly sent: Exchange[] = [];
  readonly delivered: Exchange[] = [];

  /** The app's environment for Adyen through the hops. */
  async start(): Promise<Record<string, string>> {
    this.checkout.exchanges = this.sent;
    this.hooks.exchanges = this.delivered;
    const [checkoutUrl, hooksUrl] = await Promise.all([this.checkout.start(), this.hooks.start()]);
    return {
      ACQUIRER_PROVIDER: 'adyen',
      ADYEN_CHECKOUT_URL: `${checkoutUrl}/sandbox/adyen/checkout/v72`,
      ADYEN_API_KEY,
      ADYEN_HMAC_KEY,
      ADYEN_WEBHOOK_PASSWORD,
      ADYEN_MERCHANT_ACCOUNT: 'PagamentosBR',
      SANDBOX_ADYEN_WEBHOOK_URL: `${hooksUrl}/provider/adyen/webhooks`,
    };
  }

  /** Checkout calls go on to the sandbox app, webhooks to the service. */
  aim(apps: { url: string; sandboxUrl: string }): void {
    this.checkout.target = apps.sandboxUrl;
    this.hooks.target = apps.url;
  }

  /** The recorded exchanges whose path ends so (`/payments`, `/captures`, …). */
  to(suffix: string): Exchange[] {
    return this.sent.filter((e) => e.path.endsWith(suffix));
  }

  async close(): Promise<void> {
    await Promise.all([this.checkout.close(), this.hooks.close()]);
  }
}
