import { randomBytes } from 'node:crypto';
import { aes256GcmEncrypt, SEALING_IV_BYTES } from '../domain/sealing';
import {
  deriveSecretsKey,
  generateKeyId,
  generateSigningSecret,
  LEGACY_KEY_ID,
  SecretBoxError,
  SecretKeyRing,
  secretsKeyId,
} from './secret-box';

const OLD = deriveSecretsKey('old-webhook-secrets-key-0123456789abcdef');
const NEW = deriveSecretsKey('new-webhook-secrets-key-0123456789abcdef');
const TENANT = '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10';

/** A box as releases before key ids wrote it: `v1.` + base64(iv | tag | ciphertext), same AAD. */
function legacyBox(key: Buffer, tenantId: string, domain: string, secret: string): string {
  const iv = randomBytes(SEALING_IV_BYTES);
  const { ciphertext, tag } = aes256GcmEncrypt(
    key,
    iv,
    Buffer.from(secret),
    Buffer.from(JSON.stringify(['webhooks/secret/v1', tenantId, domain])),
  );
  return `v1.${Buffer.concat([iv, tag, ciphertext]).toString('base64')}`;
}

describe('secret box (secrets at rest)', () => {
  const ring = new SecretKeyRing([NEW]);

  it('round-trips, names its key, and never stores the plaintext', () => {
    const secret = generateSigningSecret();
    const box = ring.box(TENANT, 'acquiring', secret);
    expect(box.startsWith(`v2.${secretsKeyId(NEW)}.`)).toBe(true);
    expect(SecretKeyRing.keyIdOf(box)).toBe(ring.activeKeyId);
    expect(box).not.toContain(secret);
    expect(ring.open(TENANT, 'acquiring', box)).toBe(secret);
    expect(ring.box(TENANT, 'acquiring', secret)).not.toBe(box);
  });

  it('a key id is a fingerprint: 12 hex, the same for the same key, nothing of the key in it', () => {
    expect(secretsKeyId(NEW)).toMatch(/^[0-9a-f]{12}$/);
    expect(secretsKeyId(NEW)).toBe(secretsKeyId(Buffer.from(NEW)));
    expect(secretsKeyId(OLD)).not.toBe(secretsKeyId(NEW));
    expect(NEW.toString('hex')).not.toContain(secretsKeyId(NEW));
  });

  it('does not open under another key, tenant or domain, nor when altered', () => {
    const box = ring.box(TENANT, 'pix-automatic', 'k');
    expect(() => new SecretKeyRing([OLD]).open(TENANT, 'pix-automatic', box)).toThrow(SecretBoxError);
    expect(() => ring.open('00000000-0000-0000-0000-000000000000', 'pix-automatic', box)).toThrow(SecretBoxError);
    expect(() => ring.open(TENANT, 'acquiring', box)).toThrow(SecretBoxError);
    const prefix = box.slice(0, box.lastIndexOf('.') + 1);
    const raw = Buffer.from(box.slice(prefix.length), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => ring.open(TENANT, 'pix-automatic', prefix + raw.toString('base64'))).toThrow(SecretBoxError);
    // naming another key of the ring does not help a box made under a key that is not in it
    const both = new SecretKeyRing([NEW, OLD]);
    const foreign = new SecretKeyRing([deriveSecretsKey('a-third-key-not-in-the-ring-0123456789')]).box(TENANT, 'pix-automatic', 'k');
    expect(() => both.open(TENANT, 'pix-automatic', foreign.replace(/^v2\.[0-9a-f]+\./, `v2.${secretsKeyId(OLD)}.`))).toThrow(
      SecretBoxError,
    );
    expect(() => ring.open(TENANT, 'pix-automatic', 'plain')).toThrow(SecretBoxError);
    expect(() => ring.open(TENANT, 'pix-automatic', 'v2.nodot')).toThrow(SecretBoxError);
  });

  it('rotation: a ring of the new key and the previous one opens boxes of both, and boxes new secrets under the new one', () => {
    const underOld = new SecretKeyRing([OLD]).box(TENANT, 'acquiring', 'whsec_old');
    const rotating = new SecretKeyRing([NEW, OLD]);
    expect(rotating.activeKeyId).toBe(secretsKeyId(NEW));
    expect(rotating.open(TENANT, 'acquiring', underOld)).toBe('whsec_old');
    expect(rotating.open(TENANT, 'acquiring', ring.box(TENANT, 'acquiring', 'whsec_new'))).toBe('whsec_new');
    expect(SecretKeyRing.keyIdOf(rotating.box(TENANT, 'acquiring', 'x'))).toBe(secretsKeyId(NEW));
    // once the old key leaves the ring, its boxes no longer open
    expect(() => ring.open(TENANT, 'acquiring', underOld)).toThrow(SecretBoxError);
  });

  it('opens boxes written before key ids (v1) under any key of the ring', () => {
    const legacy = legacyBox(OLD, TENANT, 'pix-automatic', 'sealing-key');
    expect(SecretKeyRing.keyIdOf(legacy)).toBe(LEGACY_KEY_ID);
    expect(new SecretKeyRing([NEW, OLD]).open(TENANT, 'pix-automatic', legacy)).toBe('sealing-key');
    expect(() => ring.open(TENANT, 'pix-automatic', legacy)).toThrow(SecretBoxError);
    expect(() => new SecretKeyRing([OLD]).open(TENANT, 'acquiring', legacy)).toThrow(SecretBoxError);
  });

  it('makes secrets and key ids of the documented shape', () => {
    expect(generateSigningSecret()).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateKeyId()).toMatch(/^key_[0-9a-f]{16}$/);
  });
});
