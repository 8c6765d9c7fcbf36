import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A transaction id in the Pix shape (26 to 35 characters [A-Za-z0-9]): a 2-letter kind
 * (`RR` recurrence, `BL` billing) and 30 random characters (~155 bits).
 */
export function newIdTx(kind: 'RR' | 'BL'): string {
  const bytes = randomBytes(30);
  let s = kind;
  for (let i = 0; i < 30; i++) s += ALPHABET[bytes[i] % 36];
  return s;
}
