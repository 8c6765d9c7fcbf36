import { randomChars } from '../../kernel/common/random-ids';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A transaction id in the Pix shape (26 to 35 characters [A-Za-z0-9]): a 2-letter kind
 * (`RR` recurrence, `BL` billing) and 30 uniformly random characters (~155 bits).
 */
export function newIdTx(kind: 'RR' | 'BL'): string {
  return `${kind}${randomChars(ALPHABET, 30)}`;
}
