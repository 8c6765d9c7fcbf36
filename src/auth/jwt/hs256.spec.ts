import { createHmac } from 'node:crypto';
import { AccessClaims, Hs256Codec } from './hs256';

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
});
