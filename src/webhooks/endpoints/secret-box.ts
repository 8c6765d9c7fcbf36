/**
 * Signing secrets and sealing keys at rest: AES-256-GCM under the key derived from
 * WEBHOOK_SECRETS_KEY, bound (AAD) to the tenant and domain of the registration, so a box
 * copied into another tenant's row does not open. Stored as `v1.<base64(iv | tag | ciphertext)>`.
 */
import { randomBytes } from 'node:crypto';
import { EventDomain } from '../event-publisher';
import { aes256GcmDecrypt, aes256GcmEncrypt, SEALING_IV_BYTES, SEALING_TAG_BYTES } from '../domain/sealing';

const PREFIX = 'v1.';

export class SecretBoxError extends Error {
  readonly code = 'webhook_secret_unreadable';
  constructor() {
    super('A stored webhook secret cannot be opened (WEBHOOK_SECRETS_KEY changed or the row was altered)');
    this.name = 'SecretBoxError';
  }
}

function aad(tenantId: string, domain: EventDomain): Buffer {
  return Buffer.from(JSON.stringify(['webhooks/secret/v1', tenantId, domain]), 'utf8');
}

export function boxSecret(key: Buffer, tenantId: string, domain: EventDomain, secret: string): string {
  const iv = randomBytes(SEALING_IV_BYTES);
  const { ciphertext, tag } = aes256GcmEncrypt(key, iv, Buffer.from(secret, 'utf8'), aad(tenantId, domain));
  return PREFIX + Buffer.concat([iv, tag, ciphertext]).toString('base64');
}

export function openSecret(key: Buffer, tenantId: string, domain: EventDomain, box: string): string {
  if (!box.startsWith(PREFIX)) throw new SecretBoxError();
  const raw = Buffer.from(box.slice(PREFIX.length), 'base64');
  if (raw.length <= SEALING_IV_BYTES + SEALING_TAG_BYTES) throw new SecretBoxError();
  const iv = raw.subarray(0, SEALING_IV_BYTES);
  const tag = raw.subarray(SEALING_IV_BYTES, SEALING_IV_BYTES + SEALING_TAG_BYTES);
  const plain = aes256GcmDecrypt(key, iv, raw.subarray(SEALING_IV_BYTES + SEALING_TAG_BYTES), tag, aad(tenantId, domain));
  if (!plain) throw new SecretBoxError();
  return plain.toString('utf8');
}

/** A new acquiring signing secret: `whsec_` + 32 random bytes, base64url. The HMAC key is this string's UTF-8 bytes. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Names a secret or key (the `keyId` of sealed bodies): `key_` + 16 hex. */
export function generateKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}
