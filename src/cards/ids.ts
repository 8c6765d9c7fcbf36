import { createHash, randomBytes } from 'node:crypto';

/** Opaque random identifiers: `<prefix>_<22 base64url chars>` (128 bits). */
export function newId(prefix: 'sc' | 'tk' | 'hcs' | 'pay' | 'tds'): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

/** A bearer secret handed out once (URL key, page key, 3DS token): 256 bits, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Only a hash of a bearer secret is stored. */
export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
