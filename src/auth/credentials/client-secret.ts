import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const R = 8;
const P = 1;
const KEYLEN = 32;

function scryptAsync(secret: string, salt: Buffer, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEYLEN, { N: n, r: R, p: P, maxmem: 256 * n * R + 1024 * 1024 }, (e, k) => (e ? reject(e) : resolve(k))),
  );
}

export function newClientId(): string {
  return `cli_${randomBytes(18).toString('base64url')}`;
}

export function newClientSecret(): string {
  return `sec_${randomBytes(32).toString('base64url')}`;
}

/** `scrypt$N$r$p$salt$hash` (base64url): only this is stored, never the secret. */
export async function hashSecret(secret: string, n: number): Promise<string> {
  const salt = randomBytes(16);
  const h = await scryptAsync(secret, salt, n);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64url')}$${h.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const n = Number(parts[1]);
  const expected = Buffer.from(parts[5], 'base64url');
  const got = await scryptAsync(secret, Buffer.from(parts[4], 'base64url'), n);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** Spends the same work as a real check when the client id is unknown (no timing oracle). */
let dummy: Promise<string> | null = null;
export async function verifyAgainstNothing(secret: string, n: number): Promise<false> {
  dummy ??= hashSecret('dummy-secret-never-issued', n);
  await verifySecret(secret, await dummy);
  return false;
}
