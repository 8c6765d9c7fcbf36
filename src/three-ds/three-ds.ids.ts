import { createHash, randomBytes } from 'node:crypto';

export function newAuthenticationId(): string {
  return `tds_${randomBytes(16).toString('base64url')}`;
}

/** The initialize token: 256 random bits; only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export { rfc3339 } from '../../kernel/common/formats/rfc3339';
