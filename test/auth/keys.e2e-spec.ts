import { constants, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { http, startTestApp, TestApp } from '../support/test-app';
import { rsaPair, signChallenge } from '../support/tenant-auth';

describe('key upload and proof of possession', () => {
  let t: TestApp;
  let tenantId: string;
  const keysUrl = () => `/v1/tenants/${tenantId}/keys`;
  const upload = (publicKey: unknown) => http(t.url, 'POST', keysUrl(), { publicKey });
  const status = async (keyId: string) => (await t.sql('SELECT status FROM auth_keys WHERE id = $1', [keyId]))[0]?.status;

  beforeAll(async () => {
    t = await startTestApp({ env: { SETUP_RATE_LIMIT_PER_MINUTE: '1000' } });
    const r = await http(
      t.url,
      'POST',
      '/admin/tenants',
      { name: 'Keys', allowedCidrs: ['127.0.0.1/32', '::1/128'] },
      { 'X-Admin-Key': t.adminKey },
    );
    tenantId = r.body.tenantId;
  });
  afterAll(() => t.close());

  describe('upload', () => {
    it('accepts SPKI and PKCS#1 PEM RSA-2048 keys and answers keyId, a 32-byte base64url challenge and its 5-minute expiry', async () => {
      const { publicKey } = rsaPair();
      const spki = await upload(publicKey);
      expect(spki.status).toBe(200);
      expect(spki.body).toEqual({
        keyId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        challengeExpiresAt: expect.any(String),
      });
      expect(Buffer.from(spki.body.challenge, 'base64url')).toHaveLength(32);
      const ttl = Date.parse(spki.body.challengeExpiresAt) - Date.now();
      expect(ttl).toBeGreaterThan(290_000);
      expect(ttl).toBeLessThanOrEqual(300_000);
      const pkcs1 = createPublicKey(publicKey).export({ type: 'pkcs1', format: 'pem' }).toString();
      expect(pkcs1).toContain('BEGIN RSA PUBLIC KEY');
      const r = await upload(pkcs1);
      expect(r.status).toBe(200);
      expect(r.body.keyId).not.toBe(spki.body.keyId);
    });

    it.each([
      [
        '1024-bit RSA',
        'key_size_invalid',
        () => generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }),
      ],
      [
        '4096-bit RSA',
        'key_size_invalid',
        () => generateKeyPairSync('rsa', { modulusLength: 4096 }).publicKey.export({ type: 'spki', format: 'pem' }),
      ],
      [
        'EC P-256',
        'key_not_rsa',
        () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }),
      ],
      ['Ed25519', 'key_not_rsa', () => generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' })],
      ['a private key (PKCS#8)', 'key_is_private', () => rsaPair().privateKey],
      ['a private key (PKCS#1)', 'key_is_private', () => createPrivate().export({ type: 'pkcs1', format: 'pem' })],
      ['junk', 'key_malformed', () => 'hello, this is not a key'],
      ['a PEM with a broken body', 'key_malformed', () => '-----BEGIN PUBLIC KEY-----\nAAAAAAAAAAAAAAAA\n-----END PUBLIC KEY-----\n'],
    ])('refuses %s with 400 %s and stores nothing', async (_what, code, make) => {
      const before = await t.sql('SELECT count(*)::int AS n FROM auth_keys');
      const r = await upload(String(make()));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ statusCode: 400, error: code, message: expect.any(String), requestId: expect.any(String) });
      expect(await t.sql('SELECT count(*)::int AS n FROM auth_keys')).toEqual(before);
    });

    it('refuses a missing or non-string publicKey with validation_error', async () => {
      expect((await http(t.url, 'POST', keysUrl(), {})).body.error).toBe('validation_error');
      expect((await upload(42)).body.error).toBe('validation_error');
    });

    it('answers 404 for an unknown tenant', async () => {
      const r = await http(t.url, 'POST', '/v1/tenants/00000000-0000-4000-8000-000000000000/keys', { publicKey: rsaPair().publicKey });
      expect(r.status).toBe(404);
      expect(r.body.error).toBe('tenant_not_found');
    });
  });

  describe('verify', () => {
    let pair: { publicKey: string; privateKey: string };
    let keyId: string;
    let challenge: string;
    const verify = (body: object, id = keyId) => http(t.url, 'POST', `${keysUrl()}/${id}/verify`, body);

    beforeEach(async () => {
      pair = rsaPair();
      const r = await upload(pair.publicKey);
      keyId = r.body.keyId;
      challenge = r.body.challenge;
    });

    it('accepts RSA-PSS SHA-256 with salt length 32, once', async () => {
      const sig = signChallenge(pair.privateKey, challenge, 32);
      const ok = await verify({ challenge, signature: sig });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ verified: true });
      expect(await status(keyId)).toBe('VERIFIED');
      const again = await verify({ challenge, signature: sig });
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('challenge_used');
    });

    it("accepts the maximum salt length (OpenSSL's default)", async () => {
      const sig = sign('sha256', Buffer.from(challenge), {
        key: pair.privateKey,
        padding: constants.RSA_PKCS1_PSS_PADDING,
        saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN,
      });
      expect((await verify({ challenge, signature: sig.toString('base64') })).body).toEqual({ verified: true });
    });

    it.each([
      [
        'a PKCS#1 v1.5 signature',
        'signature_invalid',
        (p: any, c: string) => ({ challenge: c, signature: sign('sha256', Buffer.from(c), p.privateKey).toString('base64') }),
      ],
      [
        'a signature by another key',
        'signature_invalid',
        (_p: any, c: string) => ({ challenge: c, signature: signChallenge(rsaPair(true).privateKey, c) }),
      ],
      [
        'a PSS signature with SHA-1',
        'signature_invalid',
        (p: any, c: string) => ({
          challenge: c,
          signature: sign('sha1', Buffer.from(c), { key: p.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 20 }).toString(
            'base64',
          ),
        }),
      ],
      [
        'a salt length other than 32 or max',
        'signature_invalid',
        (p: any, c: string) => ({ challenge: c, signature: signChallenge(p.privateKey, c, 20) }),
      ],
      [
        'an altered challenge (signed and sent)',
        'challenge_mismatch',
        (p: any, c: string) => ({ challenge: alter(c), signature: signChallenge(p.privateKey, alter(c)) }),
      ],
      [
        'a signature of another message',
        'signature_invalid',
        (p: any, c: string) => ({ challenge: c, signature: signChallenge(p.privateKey, `${c}x`) }),
      ],
      ['a signature that is not base64', 'signature_malformed', (_p: any, c: string) => ({ challenge: c, signature: '***not base64***' })],
    ])('refuses %s with 400 %s and the key stays unverified', async (_what, code, make) => {
      const r = await verify(make(pair, challenge));
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(code);
      expect(await status(keyId)).toBe('UNVERIFIED');
      const cred = await http(t.url, 'POST', `${keysUrl()}/${keyId}/credentials`);
      expect(cred.status).toBe(409);
      expect(cred.body.error).toBe('key_not_verified');
      // the challenge was not burnt by the failure: the right signature still verifies
      expect((await verify({ challenge, signature: signChallenge(pair.privateKey, challenge) })).status).toBe(200);
    });

    it('refuses an expired challenge (test clock + 5 min) and a reissued challenge replaces the old one', async () => {
      const sig = signChallenge(pair.privateKey, challenge);
      await t.advanceClock(301_000);
      try {
        const r = await verify({ challenge, signature: sig });
        expect(r.status).toBe(400);
        expect(r.body.error).toBe('challenge_expired');
        expect(await status(keyId)).toBe('UNVERIFIED');
        const fresh = await http(t.url, 'POST', `${keysUrl()}/${keyId}/challenge`);
        expect(fresh.status).toBe(200);
        expect(fresh.body.challenge).not.toBe(challenge);
        expect((await verify({ challenge, signature: sig })).body.error).toBe('challenge_mismatch');
        expect(
          (await verify({ challenge: fresh.body.challenge, signature: signChallenge(pair.privateKey, fresh.body.challenge) })).body,
        ).toEqual({ verified: true });
      } finally {
        await t.advanceClock(-301_000);
      }
    });

    it('keeps several keys of one tenant independent', async () => {
      const other = await upload(rsaPair(true).publicKey);
      expect((await verify({ challenge, signature: signChallenge(pair.privateKey, challenge) })).status).toBe(200);
      expect(await status(keyId)).toBe('VERIFIED');
      expect(await status(other.body.keyId)).toBe('UNVERIFIED');
      // this key's challenge does not verify the other key
      const cross = await verify({ challenge, signature: signChallenge(pair.privateKey, challenge) }, other.body.keyId);
      expect(cross.body.error).toBe('challenge_mismatch');
    });

    it("answers 404 key_not_found for an unknown key and for another tenant's key", async () => {
      expect((await verify({ challenge, signature: 'AA==' }, '00000000-0000-4000-8000-000000000000')).body.error).toBe('key_not_found');
      const o = await http(
        t.url,
        'POST',
        '/admin/tenants',
        { name: 'Other', allowedCidrs: ['127.0.0.1/32'] },
        { 'X-Admin-Key': t.adminKey },
      );
      const r = await http(t.url, 'POST', `/v1/tenants/${o.body.tenantId}/keys/${keyId}/verify`, {
        challenge,
        signature: signChallenge(pair.privateKey, challenge),
      });
      expect(r.status).toBe(404);
      expect(await status(keyId)).toBe('UNVERIFIED');
    });
  });
});

function createPrivate() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** Changes the last character of a challenge, always to a different one (a fixed replacement
 *  would be a no-op whenever the challenge already ends in it). */
function alter(challenge: string): string {
  const last = challenge.slice(-1);
  return `${challenge.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}
