import { constants, createPublicKey, generateKeyPairSync, privateDecrypt, sign } from 'node:crypto';
import { decodeBase64, encryptOaep, parseRsaPublicKey, verifyPss } from './rsa-public-key';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const spki = publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('RSA public key rules', () => {
  it('reads SPKI and PKCS#1 to the same key and fingerprint', () => {
    const a = parseRsaPublicKey(spki);
    const b = parseRsaPublicKey(publicKey.export({ type: 'pkcs1', format: 'pem' }).toString());
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(b.spkiPem).toBe(spki);
  });

  it('says why a key is refused', () => {
    const code = (pem: string) => {
      try {
        parseRsaPublicKey(pem);
        return 'accepted';
      } catch (e: any) {
        return e.code;
      }
    };
    expect(code(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toBe('key_is_private');
    expect(code(generateKeyPairSync('rsa', { modulusLength: 3072 }).publicKey.export({ type: 'spki', format: 'pem' }).toString())).toBe(
      'key_size_invalid',
    );
    expect(code(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString())).toBe(
      'key_not_rsa',
    );
    expect(code(createPublicKey(spki).export({ type: 'spki', format: 'der' }).toString('base64'))).toBe('key_malformed');
    expect(code('')).toBe('key_malformed');
  });

  it('verifies PSS (salt 32 and max) only', () => {
    const key = createPublicKey(spki);
    const msg = 'challenge';
    const pss = (saltLength: number) =>
      sign('sha256', Buffer.from(msg), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength });
    expect(verifyPss(key, msg, pss(32))).toBe(true);
    expect(verifyPss(key, msg, pss(constants.RSA_PSS_SALTLEN_MAX_SIGN))).toBe(true);
    expect(verifyPss(key, msg, pss(0))).toBe(false);
    expect(verifyPss(key, msg, sign('sha256', Buffer.from(msg), privateKey))).toBe(false);
    expect(verifyPss(key, `${msg}!`, pss(32))).toBe(false);
  });

  it('encrypts with OAEP SHA-256 only', () => {
    const c = Buffer.from(encryptOaep(createPublicKey(spki), 'sec_x'), 'base64');
    expect(privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, c).toString()).toBe('sec_x');
    expect(() => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING }, c)).toThrow();
  });

  it('decodes base64 and base64url, refuses other text', () => {
    expect(decodeBase64('AQID')).toEqual(Buffer.from([1, 2, 3]));
    expect(decodeBase64('-_8')).toEqual(Buffer.from([0xfb, 0xff]));
    expect(decodeBase64('not base64!')).toBeNull();
  });
});
