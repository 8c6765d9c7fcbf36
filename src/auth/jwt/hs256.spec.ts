import { createHmac } from 'node:crypto';
import { AccessClaims, Hs256Codec, MAX_TOKEN_LENGTH, VERIFIED_TOKEN_CHARS_KEPT, VERIFIED_TOKENS_KEPT } from './hs256';

const K1 = { kid: 'k1', key: Buffer.from('first-secret-0123456789abcdef0123') };
const K2 = { kid: 'k2', key: Buffer.from('second-secret-0123456789abcdef012') };
const NOW = 1_800_000_000;
const claims: AccessClaims = { iss: 'iss', sub: 'cli_a', tenant: 't', kid: 'key', iat: NOW, exp: NOW + 3600, jti: 'j' };

function forge(header: object, payload: object, key: Buffer): string {
  const h = Buffer.from(JSON.stringify(header)).toString('base64url');
  const p = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${h}.${p}.${createHmac('sha256', key).update(`${h}.${p}`).digest('base64url')}`;
}

/** The same 32 signature bytes, written with the last character's two spare bits set. */
function flipSpareBits(token: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(token[token.length - 1]);
  const variant = `${token.slice(0, -1)}${alphabet[last | 1]}`;
  expect(Buffer.from(variant.split('.')[2], 'base64url')).toEqual(Buffer.from(token.split('.')[2], 'base64url'));
  return variant;
}

/** A payload written with base64 padding, decoding to the same bytes. */
function padPayload(token: string): string {
  const [h, p, s] = token.split('.');
  return `${h}.${p}${'='.repeat((4 - (p.length % 4)) % 4 || 4)}.${s}`;
}

describe('Hs256Codec', () => {
  const codec = new Hs256Codec([K2, K1], 'iss');

  it('signs with the newest key and verifies with every configured key', () => {
    const t = codec.sign(claims);
    expect(JSON.parse(Buffer.from(t.split('.')[0], 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT', kid: 'k2' });
    expect(codec.verify(t, NOW + 10)).toEqual({ ok: true, claims });
    const old = new Hs256Codec([K1], 'iss').sign(claims);
    expect(codec.verify(old, NOW)).toEqual({ ok: true, claims });
  });

  it('is expired from exp on, and still says which tenant', () => {
    const t = codec.sign(claims);
    expect(codec.verify(t, NOW + 3599).ok).toBe(true);
    expect(codec.verify(t, NOW + 3600)).toMatchObject({ ok: false, code: 'expired_token', claims: { tenant: 't' } });
  });

  it.each([
    ['an unknown kid', () => forge({ alg: 'HS256', typ: 'JWT', kid: 'k9' }, claims, K1.key)],
    [
      'alg none',
      () =>
        `${Buffer.from('{"alg":"none","typ":"JWT","kid":"k1"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
    ],
    ['a wrong key under a known kid', () => forge({ alg: 'HS256', typ: 'JWT', kid: 'k1' }, claims, K2.key)],
    ['another issuer', () => forge({ alg: 'HS256', typ: 'JWT', kid: 'k1' }, { ...claims, iss: 'evil' }, K1.key)],
    ['missing claims', () => forge({ alg: 'HS256', typ: 'JWT', kid: 'k1' }, { iss: 'iss', sub: 'x' }, K1.key)],
    ['issued in the future', () => forge({ alg: 'HS256', typ: 'JWT', kid: 'k1' }, { ...claims, iat: NOW + 600 }, K1.key)],
    ['four segments', () => `${codec.sign(claims)}.x`],
    ['garbage', () => 'garbage'],
    ['a truncated signature', () => codec.sign(claims).slice(0, -2)],
    // one signed token, other texts: each must be refused, or each would be a new store entry
    ['characters outside the alphabet after it', () => `${codec.sign(claims)}!!!`],
    ['characters outside the alphabet inside the signature', () => codec.sign(claims).replace(/(.{20})$/, '*$1')],
    ['padding on the signature', () => `${codec.sign(claims)}=`],
    ['a signature whose last character carries nonzero spare bits', () => flipSpareBits(codec.sign(claims))],
    ['characters outside the alphabet in the payload', () => codec.sign(claims).replace('.', '.!')],
    ['padding in the payload', () => padPayload(codec.sign(claims))],
    ['a token over the size limit', () => `${codec.sign(claims)}${'A'.repeat(MAX_TOKEN_LENGTH)}`],
  ])('refuses %s as invalid_token', (_what, make) => {
    expect(codec.verify(make(), NOW)).toMatchObject({ ok: false, code: 'invalid_token' });
  });

  describe('tokens already verified (kept so the HMAC runs once per token)', () => {
    it('still expire at exp and refuse an iat in the future on every call', () => {
      const c = new Hs256Codec([K1], 'iss');
      const t = c.sign(claims);
      expect(c.verify(t, NOW).ok).toBe(true);
      expect(c.verify(t, NOW + 3600)).toMatchObject({ ok: false, code: 'expired_token' });
      expect(c.verify(t, NOW - 61)).toMatchObject({ ok: false, code: 'invalid_token', reason: 'issued in the future' });
      expect(c.verify(t, NOW + 1)).toEqual({ ok: true, claims });
    });

    it('are matched on the whole token: one changed character of a verified token is refused', () => {
      const c = new Hs256Codec([K1], 'iss');
      const t = c.sign(claims);
      expect(c.verify(t, NOW).ok).toBe(true);
      const i = t.length - 10; // inside the signature, where every bit counts
      const other = t[i] === 'A' ? 'B' : 'A';
      expect(c.verify(`${t.slice(0, i)}${other}${t.slice(i + 1)}`, NOW)).toMatchObject({
        ok: false,
        code: 'invalid_token',
        reason: 'bad signature',
      });
      const payload = Buffer.from(JSON.stringify({ ...claims, tenant: 'other' })).toString('base64url');
      const [h, , sig] = t.split('.');
      expect(c.verify(`${h}.${payload}.${sig}`, NOW)).toMatchObject({ ok: false, code: 'invalid_token', reason: 'bad signature' });
      expect(c.verify(t, NOW)).toEqual({ ok: true, claims });
    });

    it('are not known to a codec with other keys (a rotation)', () => {
      const t = new Hs256Codec([K1], 'iss').sign(claims);
      const before = new Hs256Codec([K1], 'iss');
      expect(before.verify(t, NOW).ok).toBe(true);
      expect(new Hs256Codec([K2], 'iss').verify(t, NOW)).toMatchObject({ ok: false, code: 'invalid_token' });
    });

    it('hand out claims no caller can change for the next one', () => {
      const c = new Hs256Codec([K1], 'iss');
      const t = c.sign(claims);
      const first = c.verify(t, NOW);
      expect(first.ok).toBe(true);
      expect(() => {
        'use strict';
        (first as { claims: AccessClaims }).claims.tenant = 'evil';
      }).toThrow(TypeError);
      expect(c.verify(t, NOW)).toEqual({ ok: true, claims });
    });

    it(`keep at most ${VERIFIED_TOKENS_KEPT} tokens, and every token still verifies past that`, () => {
      const c = new Hs256Codec([K1], 'iss');
      const tokens = Array.from({ length: VERIFIED_TOKENS_KEPT + 5 }, (_, i) => c.sign({ ...claims, jti: `j${i}` }));
      for (const t of tokens) expect(c.verify(t, NOW).ok).toBe(true);
      expect((c as unknown as { verified: Map<string, unknown> }).verified.size).toBe(VERIFIED_TOKENS_KEPT);
      expect(c.verify(tokens[0], NOW)).toEqual({ ok: true, claims: { ...claims, jti: 'j0' } });
      expect(c.verify(tokens[tokens.length - 1], NOW).ok).toBe(true);
    });

    it('keep only live tokens: an expired one is neither kept nor left behind', () => {
      const c = new Hs256Codec([K1], 'iss');
      const t = c.sign(claims);
      expect(c.verify(t, NOW + 3600)).toMatchObject({ code: 'expired_token' });
      expect(c.kept.tokens).toBe(0);
      expect(c.verify(t, NOW).ok).toBe(true);
      expect(c.kept.tokens).toBe(1);
      expect(c.verify(t, NOW + 3600)).toMatchObject({ code: 'expired_token' });
      expect(c.kept).toEqual({ tokens: 0, chars: 0 });
    });

    it(`keep at most ${VERIFIED_TOKEN_CHARS_KEPT} characters of tokens`, () => {
      const c = new Hs256Codec([K1], 'iss');
      const long = 'x'.repeat(450);
      const size = c.sign({ ...claims, jti: `${long}0000` }).length; // near the size limit
      expect(size).toBeGreaterThan(800);
      expect(size).toBeLessThanOrEqual(MAX_TOKEN_LENGTH);
      const n = Math.ceil(VERIFIED_TOKEN_CHARS_KEPT / size) + 10;
      expect(n).toBeLessThan(VERIFIED_TOKENS_KEPT); // so the characters bound, not the count, is what holds
      for (let i = 0; i < n; i++) expect(c.verify(c.sign({ ...claims, jti: `${long}${String(i).padStart(4, '0')}` }), NOW).ok).toBe(true);
      expect(c.kept.chars).toBeLessThanOrEqual(VERIFIED_TOKEN_CHARS_KEPT);
      expect(c.kept.chars).toBeGreaterThan(VERIFIED_TOKEN_CHARS_KEPT - size);
    });
  });
});
