import { CodedError } from '../../../kernel/common/formats/coded-error';
/**
 * Signing secrets and sealing keys at rest: AES-256-GCM under a key derived from
 * WEBHOOK_SECRETS_KEY, bound (AAD) to the tenant and domain of the registration, so a box
 * copied into another tenant's row does not open. Stored as `v2.<keyId>.<base64(iv | tag | ciphertext)>`,
 * where keyId names the key (a fingerprint, not the key): a key ring of the current key and
 * WEBHOOK_SECRETS_KEYS_PREVIOUS opens boxes made under any of them, and new boxes use the
 * current one. Boxes written before key ids (`v1.<base64>`) are opened by trying each key.
 */
import { createHash, randomBytes } from 'node:crypto';
import { EventDomain } from '../event-publisher';
import { aes256GcmDecrypt, aes256GcmEncrypt, SEALING_IV_BYTES, SEALING_TAG_BYTES } from '../domain/sealing';

const V1 = 'v1.';
const V2 = 'v2.';
/** The key-id label a v1 box (no key id) is counted under. */
export const LEGACY_KEY_ID = 'v1';

export class SecretBoxError extends CodedError<'webhook_secret_unreadable'> {
  constructor() {
    super(
      'webhook_secret_unreadable',
      'A stored webhook secret cannot be opened (its key is not in WEBHOOK_SECRETS_KEY / WEBHOOK_SECRETS_KEYS_PREVIOUS, or the row was altered)',
    );
  }
}

function aad(tenantId: string, domain: EventDomain): Buffer {
  return Buffer.from(JSON.stringify(['webhooks/secret/v1', tenantId, domain]), 'utf8');
}

/** The 32-byte key a WEBHOOK_SECRETS_KEY value stands for. */
export function deriveSecretsKey(raw: string): Buffer {
  return createHash('sha256').update(`webhooks/secrets-at-rest/v1|${raw}`).digest();
}

/** A public name of a derived key: 12 hex of a labelled hash (tells nothing of the key). */
export function secretsKeyId(key: Buffer): string {
  return createHash('sha256').update('webhooks/secrets-key-id|').update(key).digest('hex').slice(0, 12);
}

function seal(key: Buffer, tenantId: string, domain: EventDomain, secret: string): string {
  const iv = randomBytes(SEALING_IV_BYTES);
  const { ciphertext, tag } = aes256GcmEncrypt(key, iv, Buffer.from(secret, 'utf8'), aad(tenantId, domain));
  return Buffer.concat([iv, tag, ciphertext]).toString('base64');
}

function unseal(key: Buffer, tenantId: string, domain: EventDomain, raw: Buffer): string | null {
  if (raw.length <= SEALING_IV_BYTES + SEALING_TAG_BYTES) return null;
  const iv = raw.subarray(0, SEALING_IV_BYTES);
  const tag = raw.subarray(SEALING_IV_BYTES, SEALING_IV_BYTES + SEALING_TAG_BYTES);
  const plain = aes256GcmDecrypt(key, iv, raw.subarray(SEALING_IV_BYTES + SEALING_TAG_BYTES), tag, aad(tenantId, domain));
  return plain ? plain.toString('utf8') : null;
}

/** The keys that open stored secrets: the first makes new boxes, all of them open. */
export class SecretKeyRing {
  private readonly byId: Map<string, Buffer>;
  readonly activeKeyId: string;

  /** `keys`: derived keys, current first. */
  constructor(private readonly keys: Buffer[]) {
    if (!keys.length) throw new Error('SecretKeyRing needs a key');
    this.byId = new Map(keys.map((k) => [secretsKeyId(k), k]));
    this.activeKeyId = secretsKeyId(keys[0]);
  }

  box(tenantId: string, domain: EventDomain, secret: string): string {
    return `${V2}${this.activeKeyId}.${seal(this.keys[0], tenantId, domain, secret)}`;
  }

  open(tenantId: string, domain: EventDomain, box: string): string {
    if (box.startsWith(V2)) {
      const dot = box.indexOf('.', V2.length);
      const key = dot > 0 ? this.byId.get(box.slice(V2.length, dot)) : undefined;
      const plain = key ? unseal(key, tenantId, domain, Buffer.from(box.slice(dot + 1), 'base64')) : null;
      if (plain === null) throw new SecretBoxError();
      return plain;
    }
    if (box.startsWith(V1)) {
      const raw = Buffer.from(box.slice(V1.length), 'base64');
      for (const key of this.keys) {
        const plain = unseal(key, tenantId, domain, raw);
        if (plain !== null) return plain;
      }
    }
    throw new SecretBoxError();
  }

  /** The key id a box names (LEGACY_KEY_ID for a v1 box). */
  static keyIdOf(box: string): string {
    return box.startsWith(V2) ? box.slice(V2.length, box.indexOf('.', V2.length)) : LEGACY_KEY_ID;
  }
}

/** A new acquiring signing secret: `whsec_` + 32 random bytes, base64url. The HMAC key is this string's UTF-8 bytes. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Names a secret or key (the `keyId` of sealed bodies): `key_` + 16 hex. */
export function generateKeyId(): string {
  return `key_${randomBytes(8).toString('hex')}`;
}
