import { CONTROL } from '../../common/formats/text';
import { pathEnd, urlDefect } from './http-hooks';

/** The rule as regular expressions (what the hand-written scan replaced): the reference. */
const ENCODED_CONTROL = /%(?:0[0-8BCEF]|1[0-9A-F]|7F)/i;
const refused = (path: string) => ENCODED_CONTROL.test(path) || CONTROL.test(path);

describe('urlDefect: control characters in the path', () => {
  it('refuses exactly the raw characters CONTROL names, anywhere in the path, and ends the path at ?', () => {
    for (let c = 0; c < 0x10000; c++) {
      const path = `/v1/links/a${String.fromCharCode(c)}b`;
      expect({ c, end: pathEnd(path) }).toEqual({ c, end: refused(path) ? -1 : c === 0x3f ? 11 : path.length });
    }
  });

  it('refuses exactly the percent-encoded controls, in either case, and nothing after the query starts', () => {
    const hex = '0123456789abcdefABCDEFgG%';
    for (const hi of hex)
      for (const lo of hex) {
        for (const path of [`/v1/x%${hi}${lo}`, `/v1/%${hi}${lo}/y`]) {
          expect({ path, bad: pathEnd(path) < 0 }).toEqual({ path, bad: refused(path) });
          expect(pathEnd(`/v1/y?q=%${hi}${lo}`)).toBe(5);
        }
      }
    // a % at the very end, or with one character after it
    expect(pathEnd('/v1/x%')).toBe(6);
    expect(pathEnd('/v1/x%1')).toBe(7);
    expect(pathEnd('/v1/x%0')).toBe(7);
  });

  it('answers validation_error for the path and bad_request for a query that is not percent-encoding', () => {
    expect(urlDefect('/v1/a%00b')).toMatchObject({ code: 'validation_error' });
    expect(urlDefect('/v1/a\u0007b?x=1')).toMatchObject({ code: 'validation_error' });
    expect(urlDefect('/v1/a?x=%E0%A4%A')).toMatchObject({ code: 'bad_request' });
    expect(urlDefect('/v1/a?x=%00')).toBeNull();
    expect(urlDefect('/v1/a%20b?x=1%2B1')).toBeNull();
  });
});
