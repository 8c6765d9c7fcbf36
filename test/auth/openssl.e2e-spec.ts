import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guideWalk, runWalk } from '../support/guide-walk';
import { http, startTestApp, TestApp } from '../support/test-app';

/** Keys, signatures and decryption made by the openssl command line, not by Node. */
describe('with the openssl command line', () => {
  let t: TestApp;
  let dir: string;
  let tenantId: string;
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const file = (name: string) => join(dir, name);

  beforeAll(async () => {
    t = await startTestApp({ env: { SETUP_RATE_LIMIT_PER_MINUTE: '1000' } });
    dir = mkdtempSync(join(tmpdir(), 'pp-openssl-'));
    const r = await http(
      t.url,
      'POST',
      '/admin/tenants',
      { name: 'OpenSSL', allowedCidrs: ['127.0.0.1/32', '::1/128'] },
      { 'X-Admin-Key': t.adminKey },
    );
    tenantId = r.body.tenantId;
    ssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'private.pem');
    ssl('pkey', '-in', 'private.pem', '-pubout', '-out', 'public.pem');
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  async function uploadAndSign(
    publicKeyFile: string,
    padding: string[],
  ): Promise<{ keyId: string; verify: Awaited<ReturnType<typeof http>> }> {
    const up = await http(t.url, 'POST', `/v1/tenants/${tenantId}/keys`, { publicKey: readFileSync(file(publicKeyFile), 'utf8') });
    expect(up.status).toBe(200);
    writeFileSync(file('challenge.txt'), up.body.challenge);
    writeFileSync(file('challenge.sha256'), ssl('dgst', '-sha256', '-binary', 'challenge.txt'));
    ssl('pkeyutl', '-sign', '-inkey', 'private.pem', '-in', 'challenge.sha256', '-pkeyopt', 'digest:sha256', ...padding, '-out', 'sig.bin');
    const signature = readFileSync(file('sig.bin')).toString('base64');
    const verify = await http(t.url, 'POST', `/v1/tenants/${tenantId}/keys/${up.body.keyId}/verify`, {
      challenge: up.body.challenge,
      signature,
    });
    return { keyId: up.body.keyId, verify };
  }

  it("verifies PSS signatures with salt length 32 and with OpenSSL's default (maximum) salt", async () => {
    const a = await uploadAndSign('public.pem', ['-pkeyopt', 'rsa_padding_mode:pss', '-pkeyopt', 'rsa_pss_saltlen:32']);
    expect(a.verify.status).toBe(200);
    expect(a.verify.body).toEqual({ verified: true });
    const b = await uploadAndSign('public.pem', ['-pkeyopt', 'rsa_padding_mode:pss']);
    expect(b.verify.body).toEqual({ verified: true });
  });

  it('refuses an openssl PKCS#1 v1.5 signature and keeps the key unverified', async () => {
    const r = await uploadAndSign('public.pem', ['-pkeyopt', 'rsa_padding_mode:pkcs1']);
    expect(r.verify.status).toBe(400);
    expect(r.verify.body.error).toBe('signature_invalid');
    expect((await t.sql('SELECT status FROM auth_keys WHERE id = $1', [r.keyId]))[0].status).toBe('UNVERIFIED');
  });

  it('accepts a PKCS#1 public key from openssl rsa -RSAPublicKey_out, and the credentials decrypt with openssl pkeyutl OAEP SHA-256', async () => {
    ssl('rsa', '-in', 'private.pem', '-RSAPublicKey_out', '-out', 'public-pkcs1.pem');
    expect(readFileSync(file('public-pkcs1.pem'), 'utf8')).toContain('BEGIN RSA PUBLIC KEY');
    const { keyId, verify } = await uploadAndSign('public-pkcs1.pem', [
      '-pkeyopt',
      'rsa_padding_mode:pss',
      '-pkeyopt',
      'rsa_pss_saltlen:32',
    ]);
    expect(verify.body).toEqual({ verified: true });
    const c = await http(t.url, 'POST', `/v1/tenants/${tenantId}/keys/${keyId}/credentials`);
    expect(c.status).toBe(200);
    const decrypt = (b64: string, opts: string[]) => {
      writeFileSync(file('enc.bin'), Buffer.from(b64, 'base64'));
      return ssl('pkeyutl', '-decrypt', '-inkey', 'private.pem', '-in', 'enc.bin', ...opts).toString('utf8');
    };
    const oaep = ['-pkeyopt', 'rsa_padding_mode:oaep', '-pkeyopt', 'rsa_oaep_md:sha256'];
    const clientId = decrypt(c.body.encryptedClientId, oaep);
    const clientSecret = decrypt(c.body.encryptedClientSecret, [...oaep, '-pkeyopt', 'rsa_mgf1_md:sha256']);
    expect(clientId).toMatch(/^cli_/);
    // not PKCS#1 v1.5, not OAEP with SHA-1: decrypted so, it is refused or (a v1.5 unpadding of
    // other padding passes its checks by chance, about once in 10^5) garbage, never the secret
    const decryptsTo = (opts: string[]) => {
      try {
        return decrypt(c.body.encryptedClientSecret, opts);
      } catch {
        return null;
      }
    };
    expect(decryptsTo(['-pkeyopt', 'rsa_padding_mode:pkcs1'])).not.toBe(clientSecret);
    expect(decryptsTo(['-pkeyopt', 'rsa_padding_mode:oaep'])).not.toBe(clientSecret);
    const tok = await http(t.url, 'POST', '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: clientSecret,
    });
    expect(tok.status).toBe(200);
  });

  it.each([
    [
      'an RSA-PSS-restricted key (genpkey -algorithm RSA-PSS)',
      ['genpkey', '-algorithm', 'RSA-PSS', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', 'k.pem'],
      'key_not_rsa',
    ],
    ['a 1024-bit key', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:1024', '-out', 'k.pem'], 'key_size_invalid'],
    ['an EC key', ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'k.pem'], 'key_not_rsa'],
  ])('refuses %s', async (_what, gen, code) => {
    ssl(...gen);
    ssl('pkey', '-in', 'k.pem', '-pubout', '-out', 'k.pub.pem');
    const r = await http(t.url, 'POST', `/v1/tenants/${tenantId}/keys`, { publicKey: readFileSync(file('k.pub.pem'), 'utf8') });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(code);
    const priv = await http(t.url, 'POST', `/v1/tenants/${tenantId}/keys`, { publicKey: readFileSync(file('k.pem'), 'utf8') });
    expect(priv.body.error).toBe('key_is_private');
  });

  it('the README walk (docs/guide/auth.md) works as written, with openssl, curl and jq', async () => {
    const walk = guideWalk('auth.md');
    // its step 0 plays the operator (npm run tenant:create, in this app's database)
    const out = await runWalk(walk, { BASE: t.url, DATABASE_URL: t.databaseUrl });
    const lines = out.trim().split('\n');
    expect(JSON.parse(lines[0])).toEqual({ verified: true });
    const [made] = await t.sql(`SELECT id FROM tenants WHERE name = 'ACME' ORDER BY created_at DESC LIMIT 1`);
    expect(JSON.parse(lines[lines.length - 1])).toMatchObject({ accountId: made.id, tenantId: made.id, rateLimit: { limit: 100 } });
  });
});
