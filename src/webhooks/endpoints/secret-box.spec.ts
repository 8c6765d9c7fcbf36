import { randomBytes } from 'node:crypto';
import { boxSecret, generateKeyId, generateSigningSecret, openSecret, SecretBoxError } from './secret-box';

const KEY = randomBytes(32);
const TENANT = '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10';

describe('secret box (secrets at rest)', () => {
  it('round-trips and never stores the plaintext', () => {
    const secret = generateSigningSecret();
    const box = boxSecret(KEY, TENANT, 'acquiring', secret);
    expect(box.startsWith('v1.')).toBe(true);
    expect(box).not.toContain(secret);
    expect(openSecret(KEY, TENANT, 'acquiring', box)).toBe(secret);
    expect(boxSecret(KEY, TENANT, 'acquiring', secret)).not.toBe(box);
  });

  it('does not open under another key, tenant or domain, nor when altered', () => {
    const box = boxSecret(KEY, TENANT, 'pix-automatic', 'k');
    expect(() => openSecret(randomBytes(32), TENANT, 'pix-automatic', box)).toThrow(SecretBoxError);
    expect(() => openSecret(KEY, '00000000-0000-0000-0000-000000000000', 'pix-automatic', box)).toThrow(SecretBoxError);
    expect(() => openSecret(KEY, TENANT, 'acquiring', box)).toThrow(SecretBoxError);
    const raw = Buffer.from(box.slice(3), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => openSecret(KEY, TENANT, 'pix-automatic', `v1.${raw.toString('base64')}`)).toThrow(SecretBoxError);
    expect(() => openSecret(KEY, TENANT, 'pix-automatic', 'plain')).toThrow(SecretBoxError);
  });

  it('makes secrets and key ids of the documented shape', () => {
    expect(generateSigningSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateKeyId()).toMatch(/^key_[0-9a-f]{16}$/);
  });
});
