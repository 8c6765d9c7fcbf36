/**
 * Sealed bodies of recurring-debit (Pix Automático) webhook deliveries.
 *
 * Body: `{"keyId","iv","ciphertext","tag"}`. `iv` (12 bytes), `ciphertext` and `tag` (16 bytes)
 * are standard base64. The plaintext is the UTF-8 JSON of the event object
 * (`{"id","event_type","idTx","occurredAt","data"}`), encrypted with AES-256-GCM under the
 * 32-byte key the caller received once when registering the endpoint.
 *
 * No additional authenticated data (AAD) is used, on purpose: `keyId` only tells the receiver
 * which of its keys to use (for example during a rotation), and a body whose keyId was changed
 * is opened with another key and fails GCM authentication anyway. Leaving AAD out keeps the
 * receiver's code to the bare `createDecipheriv` / `setAuthTag` / `update` / `final` sequence
 * (see ./receiver-examples), which any AES-GCM library reproduces.
 */
import { randomBytes } from 'node:crypto';
import { aes256GcmDecrypt, aes256GcmEncrypt } from '../../../kernel/common/aes-gcm';
import { SealedBodyError, SealingInputError } from './errors';

export const SEALING_KEY_BYTES = 32;
export const SEALING_IV_BYTES = 12;
export const SEALING_TAG_BYTES = 16;
const KEY_ID_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/** What is POSTed to the receiver. */
export interface SealedBody {
  keyId: string;
  iv: string;
  ciphertext: string;
  tag: string;
}

// Low-level AES-256-GCM lives in kernel/common/aes-gcm.ts (re-exported for the known-answer tests).
export { aes256GcmDecrypt, aes256GcmEncrypt } from '../../../kernel/common/aes-gcm';

// ---------------------------------------------------------------------------------------------

/** Encrypts the event object under `key` (32 bytes) with a fresh random 12-byte IV. */
export function seal(key: Buffer, keyId: string, plaintext: object): SealedBody {
  assertKey(key);
  if (typeof keyId !== 'string' || !KEY_ID_PATTERN.test(keyId)) {
    throw new SealingInputError('sealing_key_id_invalid', 'the key id must match [A-Za-z0-9_.-]{1,64}');
  }
  if (plaintext === null || typeof plaintext !== 'object' || Array.isArray(plaintext)) {
    throw new SealingInputError('sealed_payload_invalid', 'the sealed payload must be a JSON object');
  }
  const iv = randomBytes(SEALING_IV_BYTES);
  const { ciphertext, tag } = aes256GcmEncrypt(key, iv, Buffer.from(JSON.stringify(plaintext), 'utf8'));
  return { keyId, iv: iv.toString('base64'), ciphertext: ciphertext.toString('base64'), tag: tag.toString('base64') };
}

/** Decrypts and parses a sealed body. Throws {@link SealedBodyError} on any failure. */
export function open<T = Record<string, unknown>>(key: Buffer, body: SealedBody): T {
  assertKey(key);
  if (body === null || typeof body !== 'object') throw new SealedBodyError('sealed_body_malformed', 'the sealed body is not an object');
  const iv = decodeBase64(body.iv, 'iv');
  const tag = decodeBase64(body.tag, 'tag');
  const ciphertext = decodeBase64(body.ciphertext, 'ciphertext');
  if (iv.length !== SEALING_IV_BYTES) throw new SealedBodyError('sealed_body_malformed', `iv must be ${SEALING_IV_BYTES} bytes`);
  if (tag.length !== SEALING_TAG_BYTES) throw new SealedBodyError('sealed_body_malformed', `tag must be ${SEALING_TAG_BYTES} bytes`);
  const plaintext = aes256GcmDecrypt(key, iv, ciphertext, tag);
  if (!plaintext) {
    throw new SealedBodyError('sealed_body_authentication_failed', 'the sealed body failed authentication (wrong key or altered body)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext.toString('utf8'));
  } catch {
    throw new SealedBodyError('sealed_body_not_json', 'the sealed plaintext is not JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SealedBodyError('sealed_body_not_json', 'the sealed plaintext is not a JSON object');
  }
  return parsed as T;
}

/** Parses the base64 sealing key (as shown to the caller once): exactly 32 bytes. */
export function parseSealingKey(base64Key: string): Buffer {
  const key =
    typeof base64Key === 'string' && /^[A-Za-z0-9+/]+={0,2}$/.test(base64Key.trim()) ? Buffer.from(base64Key.trim(), 'base64') : null;
  if (!key || key.length !== SEALING_KEY_BYTES || key.toString('base64') !== base64Key.trim()) {
    throw new SealingInputError('sealing_key_invalid', `the sealing key must be base64 of exactly ${SEALING_KEY_BYTES} bytes`);
  }
  return key;
}

/** A fresh random sealing key, base64 (what the registration call shows once). */
export function generateSealingKey(): string {
  return randomBytes(SEALING_KEY_BYTES).toString('base64');
}

function assertKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== SEALING_KEY_BYTES) {
    throw new SealingInputError('sealing_key_invalid', `the sealing key must be exactly ${SEALING_KEY_BYTES} bytes`);
  }
}

function decodeBase64(value: unknown, name: string): Buffer {
  if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) {
    throw new SealedBodyError('sealed_body_malformed', `${name} is not base64`);
  }
  return Buffer.from(value, 'base64');
}
