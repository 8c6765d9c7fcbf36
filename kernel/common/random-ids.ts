import { randomFillSync } from 'node:crypto';

/**
 * Random characters for identifiers (not for secrets: keys, IVs and client secrets take their
 * bytes straight from `randomBytes`). Bytes come from a pooled CSPRNG buffer refilled 4 KiB at
 * a time, as Node's own randomUUID does: one `randomBytes` call per id cost ~25 µs under load
 * here, and the billing engine makes two ids per billing.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let next = POOL_BYTES;

function randomByte(): number {
  if (next >= POOL_BYTES) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++];
}

/** `length` characters drawn uniformly from `alphabet` (rejection sampling: no modulo bias). */
export function randomChars(alphabet: string, length: number): string {
  const n = alphabet.length;
  if (n < 2 || n > 256) throw new RangeError('alphabet must have 2 to 256 characters');
  const limit = 256 - (256 % n);
  let s = '';
  while (s.length < length) {
    const b = randomByte();
    if (b < limit) s += alphabet[b % n];
  }
  return s;
}

const HEX = '0123456789abcdef';

/** `bytes` random bytes as lowercase hex. */
export function randomHex(bytes: number): string {
  return randomChars(HEX, bytes * 2);
}
