/**
 * Envelope encryption of card numbers (PAN) for the card vault.
 *
 * - Every record gets a fresh random 32-byte data key. The PAN is encrypted under it with
 *   AES-256-GCM (12-byte random IV, 16-byte tag).
 * - The data key is wrapped (AES-256-GCM again) under a master key from the key ring; the
 *   record stores `keyId` and `wrappedDataKey = base64(iv || tag || ciphertext)` (12+16+32 bytes).
 * - Additional authenticated data (AAD), encoded as a JSON array so no two inputs collide:
 *   - wrapped data key: `["pan-vault/dek/v1", keyId, recordId | null]`: binds the wrapped key
 *     to the master key id and to the row;
 *   - PAN ciphertext:   `["pan-vault/pan/v1", recordId | null]`: binds the ciphertext to the
 *     row. It cannot include the master key id, because rotation (`rewrap`) changes the key id
 *     without touching the ciphertext. Swapping a ciphertext into another record fails anyway,
 *     since every record has its own data key.
 *   The record id is not stored in the record; the caller passes the row's id on every call.
 * - Rotation: add the new master key to the ring and make it active; new records use it; old
 *   records still open with the old key (it stays in the ring); `rewrap` moves a record to the
 *   active key by re-wrapping only its data key. Once no record names the old key id
 *   (`needsRewrap` is false everywhere), the old key can leave the ring.
 * - `fingerprint` is a keyed HMAC-SHA256 of the PAN (hex) for duplicate detection: a plain hash
 *   of a 16-digit number with a known BIN could be brute-forced from the table. Use a key that
 *   is not one of the master keys.
 *
 * Errors are typed (see ./errors): nothing here throws for a bad key, record or tag without a
 * stable code, and no message carries a PAN or key material.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { aes256GcmDecrypt, aes256GcmEncrypt } from '../../../kernel/common/aes-gcm';
import { FingerprintKeyError, VaultDecryptionError, VaultKeyNotFoundError, VaultKeyRingError, VaultRecordMalformedError } from './errors';
import { normalizePan } from '../../../kernel/common/formats/pan';

export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;
const WRAPPED_KEY_BYTES = IV_BYTES + TAG_BYTES + KEY_BYTES;
const KEY_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** Master keys from configuration; `activeKeyId` wraps every new data key. */
export interface MasterKeyRing {
  readonly activeKeyId: string;
  readonly keys: Readonly<Record<string, Buffer>>;
}

/** What the vault table stores for one card number. All fields but keyId are base64. */
export interface EncryptedPan {
  keyId: string;
  wrappedDataKey: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/** Binds a record to its row: pass the same recordId to encrypt, decrypt and rewrap. */
export interface VaultContext {
  recordId?: string;
}

// Low-level AES-256-GCM lives in kernel/common/aes-gcm.ts (re-exported for the known-answer tests).
export { aes256GcmDecrypt, aes256GcmEncrypt } from '../../../kernel/common/aes-gcm';

// ---------------------------------------------------------------------------------------------
// Key ring

/**
 * Parses `k1:<base64 32 bytes>,k2:<base64 32 bytes>` (for example from `VAULT_MASTER_KEYS`).
 * The active key is `activeKeyId` when given (for example `VAULT_ACTIVE_KEY_ID`), otherwise
 * the LAST entry, so rotation is "append the new key". Keys must be canonical standard base64
 * of exactly 32 bytes (`openssl rand -base64 32`); key ids match `[A-Za-z0-9_.-]{1,64}`.
 * Blank entries (a trailing comma) are ignored.
 */
export function parseKeyRing(value: string | undefined, activeKeyId?: string): MasterKeyRing {
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  if (entries.length === 0) throw new VaultKeyRingError('vault_key_ring_empty', 'the master key ring has no key');
  const keys: Record<string, Buffer> = Object.create(null);
  let last = '';
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    if (colon <= 0) throw new VaultKeyRingError('vault_key_ring_malformed', 'each master key entry must be <keyId>:<base64 key>');
    const keyId = entry.slice(0, colon).trim();
    const encoded = entry.slice(colon + 1).trim();
    if (!KEY_ID_PATTERN.test(keyId)) throw new VaultKeyRingError('vault_key_id_invalid', 'a master key id must match [A-Za-z0-9_.-]{1,64}');
    if (hasKey(keys, keyId)) throw new VaultKeyRingError('vault_key_id_duplicate', `master key id "${keyId}" appears twice`);
    const key = decodeCanonicalBase64(encoded);
    if (!key || key.length !== KEY_BYTES) {
      throw new VaultKeyRingError('vault_key_length_invalid', `master key "${keyId}" must be base64 of exactly ${KEY_BYTES} bytes`);
    }
    keys[keyId] = key;
    last = keyId;
  }
  const active = activeKeyId?.trim() || last;
  const ring: MasterKeyRing = { activeKeyId: active, keys };
  assertKeyRing(ring);
  return ring;
}

/** Validates a ring built by hand: the active key exists and every key is 32 bytes. */
export function assertKeyRing(ring: MasterKeyRing): void {
  const ids = Object.keys(ring.keys);
  if (ids.length === 0) throw new VaultKeyRingError('vault_key_ring_empty', 'the master key ring has no key');
  for (const id of ids) {
    if (!KEY_ID_PATTERN.test(id)) throw new VaultKeyRingError('vault_key_id_invalid', 'a master key id must match [A-Za-z0-9_.-]{1,64}');
    const key = ring.keys[id];
    if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
      throw new VaultKeyRingError('vault_key_length_invalid', `master key "${id}" must be exactly ${KEY_BYTES} bytes`);
    }
  }
  if (!hasKey(ring.keys, ring.activeKeyId)) {
    throw new VaultKeyRingError('vault_active_key_missing', `active master key "${ring.activeKeyId}" is not in the key ring`);
  }
}

// ---------------------------------------------------------------------------------------------
// Records

/** Encrypts a card number (spaces and hyphens are removed; 12–19 digits) under the active key. */
export function encryptPan(pan: string, ring: MasterKeyRing, context: VaultContext = {}): EncryptedPan {
  const digits = normalizePan(pan);
  assertKeyRing(ring);
  const dataKey = randomBytes(KEY_BYTES);
  try {
    const iv = randomBytes(IV_BYTES);
    const { ciphertext, tag } = aes256GcmEncrypt(dataKey, iv, Buffer.from(digits, 'utf8'), panAad(context));
    return {
      keyId: ring.activeKeyId,
      wrappedDataKey: wrapDataKey(dataKey, ring.activeKeyId, ring.keys[ring.activeKeyId], context),
      iv: iv.toString('base64'),
      tag: tag.toString('base64'),
      ciphertext: ciphertext.toString('base64'),
    };
  } finally {
    dataKey.fill(0);
  }
}

/** Opens a record with the master key it names (which need not be the active one). */
export function decryptPan(record: EncryptedPan, ring: MasterKeyRing, context: VaultContext = {}): string {
  const parts = decodeRecord(record);
  const dataKey = unwrapDataKey(record.keyId, parts.wrapped, ring, context);
  try {
    const plaintext = aes256GcmDecrypt(dataKey, parts.iv, parts.ciphertext, parts.tag, panAad(context));
    if (!plaintext) throw new VaultDecryptionError('pan');
    const pan = plaintext.toString('utf8');
    plaintext.fill(0);
    return pan;
  } finally {
    dataKey.fill(0);
  }
}

/** True when the record is wrapped under a key other than the active one. */
export function needsRewrap(record: Pick<EncryptedPan, 'keyId'>, ring: MasterKeyRing): boolean {
  return record.keyId !== ring.activeKeyId;
}

/**
 * Rotation: re-wraps the record's data key under the active master key. The PAN ciphertext,
 * IV and tag are returned unchanged (the card number is never decrypted). A record already
 * under the active key is returned as an unchanged copy. The wrapped key is authenticated
 * before re-wrapping, so a tampered record is refused rather than laundered.
 */
export function rewrap(record: EncryptedPan, ring: MasterKeyRing, context: VaultContext = {}): EncryptedPan {
  assertKeyRing(ring);
  const parts = decodeRecord(record);
  if (!needsRewrap(record, ring)) return { ...record };
  const dataKey = unwrapDataKey(record.keyId, parts.wrapped, ring, context);
  try {
    return {
      ...record,
      keyId: ring.activeKeyId,
      wrappedDataKey: wrapDataKey(dataKey, ring.activeKeyId, ring.keys[ring.activeKeyId], context),
    };
  } finally {
    dataKey.fill(0);
  }
}

// ---------------------------------------------------------------------------------------------
// Fingerprint

/** Keyed fingerprint of a card number: HMAC-SHA256(fingerprintKey, digits) as lowercase hex. */
export function fingerprint(pan: string, fingerprintKey: Buffer): string {
  if (!Buffer.isBuffer(fingerprintKey) || fingerprintKey.length < KEY_BYTES) {
    throw new FingerprintKeyError(`the fingerprint key must be at least ${KEY_BYTES} bytes`);
  }
  return createHmac('sha256', fingerprintKey).update(normalizePan(pan), 'utf8').digest('hex');
}

/** Parses the fingerprint key from configuration: canonical base64 of at least 32 bytes. */
export function parseFingerprintKey(value: string | undefined): Buffer {
  const key = decodeCanonicalBase64((value ?? '').trim());
  if (!key || key.length < KEY_BYTES) throw new FingerprintKeyError(`the fingerprint key must be base64 of at least ${KEY_BYTES} bytes`);
  return key;
}

// ---------------------------------------------------------------------------------------------
// Internals

function hasKey(keys: Readonly<Record<string, Buffer>>, keyId: string): boolean {
  return Object.prototype.hasOwnProperty.call(keys, keyId);
}

function decodeCanonicalBase64(value: string): Buffer | null {
  if (typeof value !== 'string' || value.length === 0 || value.length % 4 !== 0) return null;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  const bytes = Buffer.from(value, 'base64');
  return bytes.toString('base64') === value ? bytes : null;
}

function dekAad(keyId: string, context: VaultContext): Buffer {
  return Buffer.from(JSON.stringify(['pan-vault/dek/v1', keyId, context.recordId ?? null]), 'utf8');
}

function panAad(context: VaultContext): Buffer {
  return Buffer.from(JSON.stringify(['pan-vault/pan/v1', context.recordId ?? null]), 'utf8');
}

function wrapDataKey(dataKey: Buffer, keyId: string, masterKey: Buffer, context: VaultContext): string {
  const iv = randomBytes(IV_BYTES);
  const { ciphertext, tag } = aes256GcmEncrypt(masterKey, iv, dataKey, dekAad(keyId, context));
  return Buffer.concat([iv, tag, ciphertext]).toString('base64');
}

function unwrapDataKey(keyId: string, wrapped: Buffer, ring: MasterKeyRing, context: VaultContext): Buffer {
  if (!hasKey(ring.keys, keyId)) throw new VaultKeyNotFoundError(keyId);
  const masterKey = ring.keys[keyId];
  if (!Buffer.isBuffer(masterKey) || masterKey.length !== KEY_BYTES) {
    throw new VaultKeyRingError('vault_key_length_invalid', `master key "${keyId}" must be exactly ${KEY_BYTES} bytes`);
  }
  const iv = wrapped.subarray(0, IV_BYTES);
  const tag = wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
  const ciphertext = wrapped.subarray(IV_BYTES + TAG_BYTES);
  const dataKey = aes256GcmDecrypt(masterKey, iv, ciphertext, tag, dekAad(keyId, context));
  if (!dataKey || dataKey.length !== KEY_BYTES) throw new VaultDecryptionError('data_key');
  return dataKey;
}

interface RecordParts {
  wrapped: Buffer;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

function decodeRecord(record: EncryptedPan): RecordParts {
  if (!record || typeof record !== 'object') throw new VaultRecordMalformedError('the vault record is missing');
  if (typeof record.keyId !== 'string' || !KEY_ID_PATTERN.test(record.keyId)) {
    throw new VaultRecordMalformedError('the vault record has no valid keyId');
  }
  const wrapped = field(record, 'wrappedDataKey');
  const iv = field(record, 'iv');
  const tag = field(record, 'tag');
  const ciphertext = field(record, 'ciphertext');
  if (wrapped.length !== WRAPPED_KEY_BYTES) throw new VaultRecordMalformedError(`wrappedDataKey must be ${WRAPPED_KEY_BYTES} bytes`);
  if (iv.length !== IV_BYTES) throw new VaultRecordMalformedError(`iv must be ${IV_BYTES} bytes`);
  if (tag.length !== TAG_BYTES) throw new VaultRecordMalformedError(`tag must be ${TAG_BYTES} bytes`);
  if (ciphertext.length === 0) throw new VaultRecordMalformedError('ciphertext is empty');
  return { wrapped, iv, tag, ciphertext };
}

function field(record: EncryptedPan, name: 'wrappedDataKey' | 'iv' | 'tag' | 'ciphertext'): Buffer {
  const bytes = decodeCanonicalBase64(record[name]);
  if (!bytes) throw new VaultRecordMalformedError(`${name} is not canonical base64`);
  return bytes;
}
