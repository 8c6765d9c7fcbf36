import { createHmac } from 'node:crypto';
import { AccessClaims, Hs256Codec, VERIFIED_TOKENS_KEPT } from './hs256';

const K1 = { kid: 'k1', key: Buffer.from('first-secret-0123456789abcdef0123') };
const K2 = { kid: 'k2', key: Buffer.from('second-secret-0123456789abcdef012') };
const NOW = 1_800_000_000;
const claims: AccessClaims = { iss: 'iss', sub: 'cli_a', tenant: 't', kid: 'key', iat: NOW, exp: NOW + 3600, jti: 'j' };

function forge(header: object, payload: object, key: Buffer): string {
  const h = Buffer.from(JSON.stringify(header)).toString('base64url');
  const p = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${h}.${p}.${createHmac('sha256', key).update(`${h}.${p}`).digest('base64url')}`;
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
  });
});
