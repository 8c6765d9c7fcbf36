import { randomBytes } from 'node:crypto';
import { CodedError } from '../../../kernel/common/formats/coded-error';
import {
  FingerprintKeyError,
  InvalidPanError,
  VaultDecryptionError,
  VaultKeyNotFoundError,
  VaultKeyRingError,
  VaultRecordMalformedError,
} from './errors';
import {
  aes256GcmDecrypt,
  aes256GcmEncrypt,
  assertKeyRing,
  decryptPan,
  EncryptedPan,
  encryptPan,
  fingerprint,
  MasterKeyRing,
  needsRewrap,
  parseFingerprintKey,
  parseKeyRing,
  rewrap,
} from './vault-crypto';

const PAN = '4111111111111111';
const k1 = randomBytes(32);
const k2 = randomBytes(32);
const ringK1: MasterKeyRing = { activeKeyId: 'k1', keys: { k1 } };
const ringK1K2: MasterKeyRing = { activeKeyId: 'k2', keys: { k1, k2 } };
const ringK2: MasterKeyRing = { activeKeyId: 'k2', keys: { k2 } };

/** Flips one bit of a base64 field and re-encodes it canonically. */
function flip(value: string, byteIndex = 0): string {
  const bytes = Buffer.from(value, 'base64');
  bytes[byteIndex] ^= 0x01;
  return bytes.toString('base64');
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CodedError);
    return (err as CodedError).code;
  }
  throw new Error('expected a typed error');
}

describe('AES-256-GCM primitive (NIST / McGrew–Viega GCM spec known answers)', () => {
  const hex = (s: string) => Buffer.from(s, 'hex');
  const K15 = 'feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308';
  const IV15 = 'cafebabefacedbaddecaf888';
  const P15 =
    'd9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72' + '1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255';
  const C15 =
    '522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa' + '8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad';

  it('test case 14: zero key, zero IV, one zero block', () => {
    const { ciphertext, tag } = aes256GcmEncrypt(Buffer.alloc(32), Buffer.alloc(12), Buffer.alloc(16));
    expect(ciphertext.toString('hex')).toBe('cea7403d4d606b6e074ec5d3baf39d18');
    expect(tag.toString('hex')).toBe('d0d1c8a799996bf0265b98b5d48ab919');
  });

  it('test case 15: 64-byte plaintext, no AAD', () => {
    const { ciphertext, tag } = aes256GcmEncrypt(hex(K15), hex(IV15), hex(P15));
    expect(ciphertext.toString('hex')).toBe(C15);
    expect(tag.toString('hex')).toBe('b094dac5d93471bdec1a502270e3cc6c');
    expect(aes256GcmDecrypt(hex(K15), hex(IV15), ciphertext, tag)?.toString('hex')).toBe(P15);
  });

  it('test case 16: 60-byte plaintext with AAD', () => {
    const aad = hex('feedfacedeadbeeffeedfacedeadbeefabaddad2');
    const { ciphertext, tag } = aes256GcmEncrypt(hex(K15), hex(IV15), hex(P15.slice(0, 120)), aad);
    expect(ciphertext.toString('hex')).toBe(C15.slice(0, 120));
    expect(tag.toString('hex')).toBe('76fc6ece0f4e1768cddf8853bb2d551b');
    expect(aes256GcmDecrypt(hex(K15), hex(IV15), ciphertext, tag, aad)?.toString('hex')).toBe(P15.slice(0, 120));
    expect(aes256GcmDecrypt(hex(K15), hex(IV15), ciphertext, tag, Buffer.from('other'))).toBeNull();
  });

  it('refuses a truncated tag', () => {
    const { ciphertext, tag } = aes256GcmEncrypt(hex(K15), hex(IV15), hex(P15));
    expect(aes256GcmDecrypt(hex(K15), hex(IV15), ciphertext, tag.subarray(0, 12))).toBeNull();
  });
});

describe('parseKeyRing', () => {
  const b1 = k1.toString('base64');
  const b2 = k2.toString('base64');

  it('parses entries, the last one active by default', () => {
    const ring = parseKeyRing(` k1:${b1} , k2:${b2},`);
    expect(ring.activeKeyId).toBe('k2');
    expect(ring.keys.k1.equals(k1)).toBe(true);
    expect(ring.keys.k2.equals(k2)).toBe(true);
  });

  it('honours an explicit active key id', () => {
    expect(parseKeyRing(`k1:${b1},k2:${b2}`, 'k1').activeKeyId).toBe('k1');
  });

  it.each([
    ['an empty string', '', 'vault_key_ring_empty'],
    ['undefined', undefined, 'vault_key_ring_empty'],
    ['a key without id', `${b1}`, 'vault_key_ring_malformed'],
    ['an empty id', `:${b1}`, 'vault_key_ring_malformed'],
    ['an id with a space', `k 1:${b1}`, 'vault_key_id_invalid'],
    ['a duplicate id', `k1:${b1},k1:${b2}`, 'vault_key_id_duplicate'],
    ['a 16-byte key', `k1:${randomBytes(16).toString('base64')}`, 'vault_key_length_invalid'],
    ['a 33-byte key', `k1:${randomBytes(33).toString('base64')}`, 'vault_key_length_invalid'],
    ['unpadded base64', `k1:${b1.replace(/=+$/, '')}`, 'vault_key_length_invalid'],
    ['text that is not base64', 'k1:not base64!', 'vault_key_length_invalid'],
  ])('rejects %s with %s', (_label, value, code) => {
    expect(codeOf(() => parseKeyRing(value))).toBe(code);
  });

  it('rejects an active key id that is not in the ring', () => {
    const err = (() => {
      try {
        parseKeyRing(`k1:${b1}`, 'k9');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(VaultKeyRingError);
    expect((err as VaultKeyRingError).code).toBe('vault_active_key_missing');
  });

  it('validates hand-built rings', () => {
    expect(codeOf(() => assertKeyRing({ activeKeyId: 'k1', keys: { k1: randomBytes(31) } }))).toBe('vault_key_length_invalid');
    expect(codeOf(() => assertKeyRing({ activeKeyId: 'k1', keys: {} }))).toBe('vault_key_ring_empty');
    expect(() => assertKeyRing(ringK1K2)).not.toThrow();
  });
});

describe('encryptPan / decryptPan', () => {
  it('round-trips and normalises spaces and hyphens', () => {
    const record = encryptPan('4111 1111-1111 1111', ringK1);
    expect(record.keyId).toBe('k1');
    expect(Buffer.from(record.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(record.tag, 'base64')).toHaveLength(16);
    expect(Buffer.from(record.wrappedDataKey, 'base64')).toHaveLength(60);
    expect(Buffer.from(record.ciphertext, 'base64')).toHaveLength(16);
    expect(JSON.stringify(record)).not.toContain(PAN);
    expect(decryptPan(record, ringK1)).toBe(PAN);
  });

  it('uses a fresh data key and IV per record', () => {
    const a = encryptPan(PAN, ringK1);
    const b = encryptPan(PAN, ringK1);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(a.iv).not.toBe(b.iv);
    expect(a.wrappedDataKey).not.toBe(b.wrappedDataKey);
  });

  it('binds the record to its record id', () => {
    const record = encryptPan(PAN, ringK1, { recordId: 'card_1' });
    expect(decryptPan(record, ringK1, { recordId: 'card_1' })).toBe(PAN);
    expect(() => decryptPan(record, ringK1, { recordId: 'card_2' })).toThrow(VaultDecryptionError);
    expect(() => decryptPan(record, ringK1)).toThrow(VaultDecryptionError);
  });

  it('binds the wrapped data key to its key id', () => {
    const record = encryptPan(PAN, ringK1);
    // same key bytes under another id: the AAD no longer matches
    const renamed: MasterKeyRing = { activeKeyId: 'k1', keys: { k1, other: k1 } };
    expect(codeOf(() => decryptPan({ ...record, keyId: 'other' }, renamed))).toBe('vault_decryption_failed');
  });

  it.each([
    ['ciphertext', 'pan'],
    ['tag', 'pan'],
    ['iv', 'pan'],
    ['wrappedDataKey', 'data_key'],
  ] as const)('fails with a typed error when %s is altered', (name, stage) => {
    const record = encryptPan(PAN, ringK1);
    const tampered: EncryptedPan = { ...record, [name]: flip(record[name], name === 'wrappedDataKey' ? 40 : 0) };
    let caught: unknown;
    try {
      decryptPan(tampered, ringK1);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(VaultDecryptionError);
    expect((caught as VaultDecryptionError).code).toBe('vault_decryption_failed');
    expect((caught as VaultDecryptionError).stage).toBe(stage);
  });

  it('fails when the wrapped key IV or tag part is altered', () => {
    const record = encryptPan(PAN, ringK1);
    expect(codeOf(() => decryptPan({ ...record, wrappedDataKey: flip(record.wrappedDataKey, 0) }, ringK1))).toBe('vault_decryption_failed');
    expect(codeOf(() => decryptPan({ ...record, wrappedDataKey: flip(record.wrappedDataKey, 20) }, ringK1))).toBe(
      'vault_decryption_failed',
    );
  });

  it('fails under a different master key with the same id', () => {
    const record = encryptPan(PAN, ringK1);
    expect(codeOf(() => decryptPan(record, { activeKeyId: 'k1', keys: { k1: k2 } }))).toBe('vault_decryption_failed');
  });

  it('rejects structurally invalid records', () => {
    const record = encryptPan(PAN, ringK1);
    expect(() => decryptPan({ ...record, tag: Buffer.alloc(12).toString('base64') }, ringK1)).toThrow(VaultRecordMalformedError);
    expect(() => decryptPan({ ...record, iv: 'not base64' }, ringK1)).toThrow(VaultRecordMalformedError);
    expect(() => decryptPan({ ...record, wrappedDataKey: Buffer.alloc(59).toString('base64') }, ringK1)).toThrow(VaultRecordMalformedError);
    expect(() => decryptPan({ ...record, ciphertext: '' }, ringK1)).toThrow(VaultRecordMalformedError);
    expect(codeOf(() => decryptPan({ ...record, keyId: '' }, ringK1))).toBe('vault_record_malformed');
  });

  it('rejects a record whose key id is not in the ring', () => {
    const record = encryptPan(PAN, ringK1);
    expect(() => decryptPan(record, ringK2)).toThrow(VaultKeyNotFoundError);
    expect(codeOf(() => decryptPan({ ...record, keyId: '__proto__' }, ringK1))).toBe('vault_key_not_found');
  });

  it('rejects input that is not a card number without echoing it', () => {
    let caught: unknown;
    try {
      encryptPan('4111-abc', ringK1);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InvalidPanError);
    expect((caught as InvalidPanError).code).toBe('invalid_pan');
    expect((caught as Error).message).not.toContain('4111');
    expect(codeOf(() => encryptPan('41111111111', ringK1))).toBe('invalid_pan');
  });
});

describe('rotation', () => {
  it('a k1 record still opens after the ring moves to k2, rewrap moves it to k2, and k1 can then be removed', () => {
    const old = encryptPan(PAN, ringK1, { recordId: 'card_9' });

    // the ring now has k2 active and keeps k1 for old records
    expect(decryptPan(old, ringK1K2, { recordId: 'card_9' })).toBe(PAN);
    expect(needsRewrap(old, ringK1K2)).toBe(true);
    expect(encryptPan(PAN, ringK1K2).keyId).toBe('k2');

    const moved = rewrap(old, ringK1K2, { recordId: 'card_9' });
    expect(moved.keyId).toBe('k2');
    expect(moved.ciphertext).toBe(old.ciphertext);
    expect(moved.iv).toBe(old.iv);
    expect(moved.tag).toBe(old.tag);
    expect(moved.wrappedDataKey).not.toBe(old.wrappedDataKey);
    expect(needsRewrap(moved, ringK1K2)).toBe(false);

    // k1 removed from the ring
    expect(decryptPan(moved, ringK2, { recordId: 'card_9' })).toBe(PAN);
    expect(() => decryptPan(old, ringK2, { recordId: 'card_9' })).toThrow(VaultKeyNotFoundError);
  });

  it('returns an unchanged copy when the record is already under the active key', () => {
    const record = encryptPan(PAN, ringK2);
    const same = rewrap(record, ringK1K2);
    expect(same).toEqual(record);
    expect(same).not.toBe(record);
  });

  it('refuses to re-wrap a tampered wrapped key or a record bound to another id', () => {
    const record = encryptPan(PAN, ringK1, { recordId: 'a' });
    expect(codeOf(() => rewrap({ ...record, wrappedDataKey: flip(record.wrappedDataKey, 30) }, ringK1K2, { recordId: 'a' }))).toBe(
      'vault_decryption_failed',
    );
    expect(codeOf(() => rewrap(record, ringK1K2, { recordId: 'b' }))).toBe('vault_decryption_failed');
  });
});

describe('fingerprint', () => {
  const f1 = randomBytes(32);
  const f2 = randomBytes(32);

  it('is equal for the same card number (formatting ignored) and a 64-char hex string', () => {
    const a = fingerprint(PAN, f1);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint('4111 1111 1111 1111', f1)).toBe(a);
  });

  it('differs for another card number and for another key', () => {
    expect(fingerprint(PAN, f1)).not.toBe(fingerprint('5555555555554444', f1));
    expect(fingerprint(PAN, f1)).not.toBe(fingerprint(PAN, f2));
  });

  it('refuses short keys', () => {
    expect(() => fingerprint(PAN, randomBytes(16))).toThrow(FingerprintKeyError);
    expect(codeOf(() => parseFingerprintKey(randomBytes(8).toString('base64')))).toBe('fingerprint_key_invalid');
    expect(codeOf(() => parseFingerprintKey(undefined))).toBe('fingerprint_key_invalid');
    expect(parseFingerprintKey(f1.toString('base64')).equals(f1)).toBe(true);
  });
});
