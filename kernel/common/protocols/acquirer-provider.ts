/**
 * The protocols the card edge can speak, as `ACQUIRER_PROVIDER` names them:
 * - `generic`: this repository's own acquirer API (`kernel/common/protocols/acquirer-*.ts`: card
 *   authorizations, captures, voids, refunds, boletos, a 3DS server and HMAC-signed status
 *   events), which the sandbox acquirer serves and any acquirer can be fronted by;
 * - `adyen`: Adyen Checkout v72 and its standard webhooks.
 */
export const ACQUIRER_PROVIDERS = ['generic', 'adyen'] as const;
export type AcquirerProvider = (typeof ACQUIRER_PROVIDERS)[number];

/** The generic protocol's first name, still accepted. */
const ALIASES: Readonly<Record<string, AcquirerProvider>> = { service: 'generic' };

/**
 * `ACQUIRER_PROVIDER` as written (unset: `generic`) → the protocol, or null when it names none.
 * The one reader of the variable: the service's acquirer config and the configs that depend on
 * the choice (the Adyen client's secrets, the sandbox's Adyen face) all ask it.
 */
export function acquirerProviderOf(raw: string | undefined): AcquirerProvider | null {
  const v = raw?.trim() || 'generic';
  if (Object.prototype.hasOwnProperty.call(ALIASES, v)) return ALIASES[v];
  return (ACQUIRER_PROVIDERS as readonly string[]).includes(v) ? (v as AcquirerProvider) : null;
}
