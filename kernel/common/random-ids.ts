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

const UUIDS_PER_BATCH = 1024;
const uuidBytes = Buffer.alloc(16 * UUIDS_PER_BATCH);
const uuidText = Buffer.alloc(36 * UUIDS_PER_BATCH);
const HEX_CODES = Buffer.from(HEX, 'latin1');
let uuids = '';
let uuidAt = 0;

/**
 * A random UUID (version 4, RFC 9562), as `crypto.randomUUID()` makes, for ids made on every
 * request (the request id). Node's builds each id from some twenty string pieces, which the
 * header writer's character check must first flatten: about 0.3 µs a request here. These are
 * cut from a batch of 1 024 written as one flat string, so an id is a slice of it.
 */
export function randomUuid(): string {
  if (uuidAt === uuids.length) {
    uuids = uuidBatch();
    uuidAt = 0;
  }
  return uuids.slice(uuidAt, (uuidAt += 36));
}

function uuidBatch(): string {
  randomFillSync(uuidBytes);
  let w = 0;
  for (let i = 0; i < uuidBytes.length; i++) {
    const k = i & 15;
    // byte 6 carries the version (4), byte 8 the variant (10xx)
    const b = k === 6 ? (uuidBytes[i] & 0x0f) | 0x40 : k === 8 ? (uuidBytes[i] & 0x3f) | 0x80 : uuidBytes[i];
    if (k === 4 || k === 6 || k === 8 || k === 10) uuidText[w++] = 0x2d; // '-'
    uuidText[w++] = HEX_CODES[b >> 4];
    uuidText[w++] = HEX_CODES[b & 15];
  }
  return uuidText.toString('latin1', 0, w);
}
