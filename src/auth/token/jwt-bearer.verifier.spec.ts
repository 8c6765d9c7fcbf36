import { randomInt } from 'node:crypto';
import { bearerTokenOf } from './jwt-bearer.verifier';

/** The language bearerTokenOf reads by hand (it replaced this expression on the hot path). */
const BEARER = /^Bearer +(\S+)\s*$/i;
const byRegex = (h: string) => BEARER.exec(h)?.[1] ?? null;

describe('bearerTokenOf reads exactly what /^Bearer +(\\S+)\\s*$/i reads', () => {
  it.each([
    'Bearer abc',
    'bearer abc',
    'BEARER abc',
    'BeArEr abc',
    'Bearer   abc',
    'Bearer abc  ',
    'Bearer abc\t\n',
    'Bearer abc\u00a0',
    'Bearer abc def',
    'Bearer\tabc',
    'Bearerabc',
    'Bearer ',
    'Bearer  ',
    ' Bearer abc',
    'Basic abc',
    'Bearer a',
    'Bearer \u2028abc',
    'Bearer ab\u0000c',
    'Bearér abc',
    '',
  ])('%j', (h) => {
    expect(bearerTokenOf(h)).toBe(byRegex(h));
  });

  it('agrees on 20 000 random headers made of the characters that matter', () => {
    const parts = ['Bearer', 'bearer', 'BEARER', 'Basic', ' ', '  ', '\t', '\n', '\u00a0', 'a', 'xY.z-_', '=', 'é', '\u0000'];
    for (let i = 0; i < 20_000; i++) {
      let h = '';
      for (let n = randomInt(1, 7); n > 0; n--) h += parts[randomInt(parts.length)];
      expect([h, bearerTokenOf(h)]).toEqual([h, byRegex(h)]);
    }
  });

  it('is null without a header', () => {
    expect(bearerTokenOf(undefined)).toBeNull();
  });
});
