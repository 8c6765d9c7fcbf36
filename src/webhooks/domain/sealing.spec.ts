import { randomBytes } from 'node:crypto';
import { SealedBodyError, SealingInputError } from './errors';
import { aes256GcmDecrypt, aes256GcmEncrypt, generateSealingKey, open, parseSealingKey, seal, SealedBody } from './sealing';

const key = randomBytes(32);
const EVENT = {
  id: 'evt_1',
  event_type: 'PIX_AUTOMATIC_RECEIVER_BILLING_COMPLETED',
  idTx: 'E12345678202501011200abcdefghijk',
  occurredAt: '2025-01-01T12:00:00Z',
  data: { amount: 49.9, payer: 'Conceição' },
};

function flip(value: string, index = 0): string {
  const bytes = Buffer.from(value, 'base64');
  bytes[index] ^= 0x80;
  return bytes.toString('base64');
}

function errorOf(fn: () => unknown): SealedBodyError | SealingInputError {
  try {
    fn();
  } catch (err) {
    return err as SealedBodyError;
  }
  throw new Error('expected a typed error');
}

describe('AES-256-GCM primitive (GCM spec test cases 14 and 16)', () => {
  const hex = (s: string) => Buffer.from(s, 'hex');

  it('test case 14', () => {
    const { ciphertext, tag } = aes256GcmEncrypt(Buffer.alloc(32), Buffer.alloc(12), Buffer.alloc(16));
    expect(ciphertext.toString('hex')).toBe('cea7403d4d606b6e074ec5d3baf39d18');
    expect(tag.toString('hex')).toBe('d0d1c8a799996bf0265b98b5d48ab919');
  });

  it('test case 16 (with AAD), both directions', () => {
    const k = hex('feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308');
    const iv = hex('cafebabefacedbaddecaf888');
    const p = hex(
      'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72' + '1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39',
    );
    const aad = hex('feedfacedeadbeeffeedfacedeadbeefabaddad2');
    const c =
      '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa' + '8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662';
    const { ciphertext, tag } = aes256GcmEncrypt(k, iv, p, aad);
    expect(ciphertext.toString('hex')).toBe(c);
    expect(tag.toString('hex')).toBe('76fc6ece0f4e1768cddf8853bb2d551b');
    expect(aes256GcmDecrypt(k, iv, hex(c), hex('76fc6ece0f4e1768cddf8853bb2d551b'), aad)?.equals(p)).toBe(true);
  });
});

describe('seal / open', () => {
  it('round-trips; the body has exactly keyId, iv, ciphertext, tag with a 12-byte IV and 16-byte tag', () => {
    const body = seal(key, 'key_2025_01', EVENT);
    expect(Object.keys(body).sort()).toEqual(['ciphertext', 'iv', 'keyId', 'tag']);
    expect(body.keyId).toBe('key_2025_01');
    expect(Buffer.from(body.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(body.tag, 'base64')).toHaveLength(16);
    expect(JSON.stringify(body)).not.toContain('PIX_AUTOMATIC');
    expect(open(key, body)).toEqual(EVENT);
    // survives the JSON round trip of an HTTP body
    expect(open(key, JSON.parse(JSON.stringify(body)))).toEqual(EVENT);
  });

  it('uses a fresh IV every time', () => {
    expect(seal(key, 'k', EVENT).iv).not.toBe(seal(key, 'k', EVENT).iv);
  });

  it('fails with a wrong key', () => {
    const body = seal(key, 'k', EVENT);
    const err = errorOf(() => open(randomBytes(32), body));
    expect(err).toBeInstanceOf(SealedBodyError);
    expect(err.code).toBe('sealed_body_authentication_failed');
  });

  it.each(['tag', 'ciphertext', 'iv'] as const)('fails when %s is altered', (name) => {
    const body = seal(key, 'k', EVENT);
    const tampered: SealedBody = { ...body, [name]: flip(body[name], 3) };
    const err = errorOf(() => open(key, tampered));
    expect(err).toBeInstanceOf(SealedBodyError);
    expect(err.code).toBe('sealed_body_authentication_failed');
  });

  it('fails when the ciphertext is truncated or extended', () => {
    const body = seal(key, 'k', EVENT);
    const ct = Buffer.from(body.ciphertext, 'base64');
    expect(errorOf(() => open(key, { ...body, ciphertext: ct.subarray(0, ct.length - 1).toString('base64') })).code).toBe(
      'sealed_body_authentication_failed',
    );
    expect(errorOf(() => open(key, { ...body, ciphertext: Buffer.concat([ct, Buffer.from([0])]).toString('base64') })).code).toBe(
      'sealed_body_authentication_failed',
    );
  });

  it('does not authenticate keyId (documented choice: no AAD)', () => {
    const body = seal(key, 'k1', EVENT);
    expect(open(key, { ...body, keyId: 'k2' })).toEqual(EVENT);
  });

  it('rejects structurally invalid bodies as malformed', () => {
    const body = seal(key, 'k', EVENT);
    expect(errorOf(() => open(key, { ...body, tag: Buffer.alloc(12).toString('base64') })).code).toBe('sealed_body_malformed');
    expect(errorOf(() => open(key, { ...body, iv: Buffer.alloc(16).toString('base64') })).code).toBe('sealed_body_malformed');
    expect(errorOf(() => open(key, { ...body, ciphertext: 'not base64!' })).code).toBe('sealed_body_malformed');
    expect(errorOf(() => open(key, { keyId: 'k' } as SealedBody)).code).toBe('sealed_body_malformed');
    expect(errorOf(() => open(key, null as unknown as SealedBody)).code).toBe('sealed_body_malformed');
  });

  it('rejects an authentic plaintext that is not a JSON object', () => {
    const iv = randomBytes(12);
    const { ciphertext, tag } = aes256GcmEncrypt(key, iv, Buffer.from('[1,2]'));
    const body = { keyId: 'k', iv: iv.toString('base64'), ciphertext: ciphertext.toString('base64'), tag: tag.toString('base64') };
    expect(errorOf(() => open(key, body)).code).toBe('sealed_body_not_json');
  });

  it('refuses bad input with typed errors', () => {
    expect(errorOf(() => seal(randomBytes(16), 'k', EVENT)).code).toBe('sealing_key_invalid');
    expect(errorOf(() => open(randomBytes(31), seal(key, 'k', EVENT))).code).toBe('sealing_key_invalid');
    expect(errorOf(() => seal(key, '', EVENT)).code).toBe('sealing_key_id_invalid');
    expect(errorOf(() => seal(key, 'k', [1] as unknown as object)).code).toBe('sealed_payload_invalid');
    expect(errorOf(() => seal(key, 'k', null as unknown as object)).code).toBe('sealed_payload_invalid');
  });
});

describe('sealing keys', () => {
  it('generates and parses 32-byte base64 keys', () => {
    const b64 = generateSealingKey();
    expect(parseSealingKey(b64)).toHaveLength(32);
    expect(open(parseSealingKey(b64), seal(parseSealingKey(b64), 'k', EVENT))).toEqual(EVENT);
  });

  it('rejects keys of the wrong length or encoding', () => {
    expect(errorOf(() => parseSealingKey(randomBytes(16).toString('base64'))).code).toBe('sealing_key_invalid');
    expect(errorOf(() => parseSealingKey('not-base64')).code).toBe('sealing_key_invalid');
    expect(errorOf(() => parseSealingKey(undefined as unknown as string)).code).toBe('sealing_key_invalid');
  });
});
