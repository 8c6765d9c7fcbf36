import { constants, createHash, createPublicKey, KeyObject, publicEncrypt, verify } from 'node:crypto';
import { AuthErrors } from '../auth.errors';

export interface ParsedPublicKey {
  key: KeyObject;
  /** Canonical SPKI PEM, as stored. */
  spkiPem: string;
  /** SHA-256 of the SPKI DER, hex. */
  fingerprint: string;
}

const SPKI = /^-----BEGIN PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PUBLIC KEY-----\s*$/;
const PKCS1 = /^-----BEGIN RSA PUBLIC KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END RSA PUBLIC KEY-----\s*$/;

/**
 * Accepts a PEM RSA public key, SPKI (`BEGIN PUBLIC KEY`) or PKCS#1 (`BEGIN RSA PUBLIC KEY`),
 * of exactly 2048 bits. Every refusal says why with its own code.
 */
export function parseRsaPublicKey(pem: string): ParsedPublicKey {
  const text = pem.trim().replace(/\\n/g, '\n');
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
    throw AuthErrors.error('key_is_private', 'This is a private key: send only the public key (the private key never leaves your systems)');
  }
  if (!SPKI.test(text) && !PKCS1.test(text)) {
    throw AuthErrors.error(
      'key_malformed',
      'publicKey must be a PEM public key: "-----BEGIN PUBLIC KEY-----" (SPKI) or "-----BEGIN RSA PUBLIC KEY-----" (PKCS#1)',
    );
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: text, format: 'pem' });
  } catch {
    throw AuthErrors.error('key_malformed', 'publicKey could not be read as a PEM public key');
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw AuthErrors.error(
      'key_not_rsa',
      `publicKey is a ${key.asymmetricKeyType ?? 'non-RSA'} key; an RSA (rsaEncryption) 2048-bit key is required`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (bits !== 2048) throw AuthErrors.error('key_size_invalid', `publicKey is ${bits} bits; exactly 2048 bits are required`);
  const der = key.export({ type: 'spki', format: 'der' });
  return {
    key,
    spkiPem: key.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: createHash('sha256').update(der).digest('hex'),
  };
}

/** 2048-bit modulus, SHA-256: the maximum PSS salt (OpenSSL's default when signing). */
const PSS_SALT_MAX = 256 - 32 - 2;

/**
 * RSA-PSS, SHA-256, MGF1-SHA-256, over the UTF-8 bytes of `message`; salt length 32 (the digest
 * length) or the maximum (222). Anything else, PKCS#1 v1.5 included, is refused.
 */
export function verifyPss(key: KeyObject, message: string, signature: Buffer): boolean {
  if (signature.length !== 256) return false;
  const data = Buffer.from(message, 'utf8');
  for (const saltLength of [32, PSS_SALT_MAX]) {
    if (verify('sha256', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }, signature)) return true;
  }
  return false;
}

/** RSA-OAEP with SHA-256 for the hash and MGF1; base64. Never PKCS#1 v1.5. */
export function encryptOaep(key: KeyObject, plaintext: string): string {
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(plaintext, 'utf8')).toString(
    'base64',
  );
}

/** Standard base64 (or base64url), whitespace ignored; null when not base64. */
export function decodeBase64(s: string): Buffer | null {
  const t = s.replace(/\s+/g, '');
  if (!t || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(t)) return null;
  return Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}
