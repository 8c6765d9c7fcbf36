import { constants, generateKeyPairSync, privateDecrypt, sign } from 'node:crypto';
import { http, TestApp } from './test-app';

export interface OnboardOptions {
  /** Default: loopback only (`127.0.0.1/32`, `::1/128`). */
  allowedCidrs?: string[];
  rateLimitPerMinute?: number;
  name?: string;
}

export interface OnboardedTenant {
  tenantId: string;
  keyId: string;
  clientId: string;
  clientSecret: string;
  token: string;
  privateKeyPem: string;
  publicKeyPem: string;
  /** `{ Authorization: 'Bearer …' }` to spread into request headers. */
  auth: { Authorization: string };
}

/** RSA-2048 pairs are slow to make (~100 ms); tests share a few. */
const pairs: { publicKey: string; privateKey: string }[] = [];
let nextPair = 0;

export function rsaPair(fresh = false): { publicKey: string; privateKey: string } {
  if (fresh || pairs.length < 4) {
    const p = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    if (!fresh) pairs.push(p);
    return p;
  }
  return pairs[nextPair++ % pairs.length];
}

export function signChallenge(privateKeyPem: string, challenge: string, saltLength = 32): string {
  return sign('sha256', Buffer.from(challenge, 'utf8'), {
    key: privateKeyPem,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength,
  }).toString('base64');
}

export function oaepDecrypt(privateKeyPem: string, b64: string): string {
  return privateDecrypt(
    { key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    Buffer.from(b64, 'base64'),
  ).toString('utf8');
}

function must(r: { status: number; text: string }, status: number, what: string): void {
  if (r.status !== status) throw new Error(`${what}: expected ${status}, got ${r.status}: ${r.text}`);
}

/**
 * The whole tenant flow over real HTTP: create the tenant (admin API), upload a key, sign the
 * challenge (RSA-PSS), verify, fetch credentials and OAEP-decrypt them, get a token.
 */
export async function onboardTenant(t: TestApp, opts: OnboardOptions = {}): Promise<OnboardedTenant> {
  const created = await http(
    t.url,
    'POST',
    '/admin/tenants',
    {
      name: opts.name ?? 'Test Tenant',
      allowedCidrs: opts.allowedCidrs ?? ['127.0.0.1/32', '::1/128'],
      ...(opts.rateLimitPerMinute ? { rateLimitPerMinute: opts.rateLimitPerMinute } : {}),
    },
    { 'X-Admin-Key': t.adminKey },
  );
  must(created, 201, 'create tenant');
  const tenantId: string = created.body.tenantId;
  const creds = await addCredentials(t, tenantId);
  return { tenantId, ...creds };
}

/** Steps 2-5 for an existing tenant: a new key, its credentials and a token. */
export async function addCredentials(t: TestApp, tenantId: string) {
  const { publicKey, privateKey } = rsaPair();
  const up = await http(t.url, 'POST', `/v1/tenants/${tenantId}/keys`, { publicKey });
  must(up, 200, 'upload key');
  const keyId: string = up.body.keyId;
  const v = await http(t.url, 'POST', `/v1/tenants/${tenantId}/keys/${keyId}/verify`, {
    challenge: up.body.challenge,
    signature: signChallenge(privateKey, up.body.challenge),
  });
  must(v, 200, 'verify key');
  const c = await http(t.url, 'POST', `/v1/tenants/${tenantId}/keys/${keyId}/credentials`);
  must(c, 200, 'credentials');
  const clientId = oaepDecrypt(privateKey, c.body.encryptedClientId);
  const clientSecret = oaepDecrypt(privateKey, c.body.encryptedClientSecret);
  const tok = await http(t.url, 'POST', '/v1/oauth/token', {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  must(tok, 200, 'token');
  const token: string = tok.body.access_token;
  return {
    keyId,
    clientId,
    clientSecret,
    token,
    privateKeyPem: privateKey,
    publicKeyPem: publicKey,
    auth: { Authorization: `Bearer ${token}` },
  };
}

/** A JWT signed by hand (HS256) with the given secret, for expiry and rotation tests. */
export function handSignedJwt(kid: string, secret: string, claims: Record<string, unknown>): string {
  const { createHmac } = require('node:crypto') as typeof import('node:crypto');
  const h = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid })).toString('base64url');
  const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${h}.${p}.${createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url')}`;
}

export function decodeJwt(token: string): { header: any; claims: any } {
  const [h, p] = token.split('.');
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString()), claims: JSON.parse(Buffer.from(p, 'base64url').toString()) };
}

/** Retries `check` until it returns true or `ms` pass; answers the elapsed time. */
export async function eventually(check: () => Promise<boolean>, ms: number, stepMs = 100): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** Fixed one-minute rate-limit windows: avoid starting a counting test in a window's last seconds. */
export async function freshRateWindow(marginMs = 8000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}
