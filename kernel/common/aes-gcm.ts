import { createCipheriv, createDecipheriv } from 'node:crypto';

/** AES-256-GCM as the service uses it everywhere: 32-byte key, 12-byte IV, 16-byte tag. */
export const AES_GCM_KEY_BYTES = 32;
export const AES_GCM_IV_BYTES = 12;
export const AES_GCM_TAG_BYTES = 16;

/** AES-256-GCM encryption with an explicit IV; 16-byte tag. */
export function aes256GcmEncrypt(key: Buffer, iv: Buffer, plaintext: Buffer, aad?: Buffer): { ciphertext: Buffer; tag: Buffer } {
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: AES_GCM_TAG_BYTES });
  if (aad) cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { ciphertext, tag: cipher.getAuthTag() };
}

/**
 * AES-256-GCM decryption; null when authentication fails (altered ciphertext, tag, IV or AAD,
 * or a wrong key). The tag length is pinned to 16 bytes so a truncated tag is refused.
 */
export function aes256GcmDecrypt(key: Buffer, iv: Buffer, ciphertext: Buffer, tag: Buffer, aad?: Buffer): Buffer | null {
  if (key.length !== AES_GCM_KEY_BYTES || iv.length !== AES_GCM_IV_BYTES || tag.length !== AES_GCM_TAG_BYTES) return null;
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: AES_GCM_TAG_BYTES });
  decipher.setAuthTag(tag);
  if (aad) decipher.setAAD(aad);
  const head = decipher.update(ciphertext);
  try {
    return Buffer.concat([head, decipher.final()]);
  } catch {
    head.fill(0);
    return null;
  }
}
