import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header carrying the shared key the service sends on every call to the provider. */
export const PROVIDER_KEY_HEADER = 'x-provider-key';

/** Header carrying `sha256=<hex HMAC-SHA256 of the raw body>` on each provider event. */
export const PROVIDER_SIGNATURE_HEADER = 'x-provider-signature';

export function signProviderEvent(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Constant-time check of the signature header against the raw bytes received. */
export function verifyProviderEvent(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header || !/^sha256=[0-9a-f]{64}$/i.test(header)) return false;
  const expected = Buffer.from(signProviderEvent(secret, rawBody).slice(7), 'hex');
  const given = Buffer.from(header.slice(7), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
