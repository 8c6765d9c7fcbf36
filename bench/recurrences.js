// Authenticated POST /v1/banking/pix/automatic/recurrences through the whole gateway (allow-list,
// JWT, rate limit, validation, the provider call to the sandbox bank over HTTP, the insert)
// against a bare node:http + pg server doing the same insert, in alternating rounds. Goal: ≥ 50 %
// of bare req/s and p99 ≤ 3× bare.
//
// The rounds also run the required-work floor (bare/recurrences-provider.js): node:http + pg doing
// what the spec asks of a create and nothing else — the provider call over HTTP to an in-process
// bank that inserts its recurrence, then our insert — in turn with the other two, so one run
// tells how much of the gap the work itself sets and how much is the service's (`ofFloor`).
const { constants, generateKeyPairSync, privateDecrypt, sign } = require('node:crypto');
const { join } = require('node:path');
const { randomBytes } = require('node:crypto');
const { ADMIN_KEY, freshDatabase, startService, startBare, alternate, pair, saoPauloDay } = require('./lib');

/** The service's signing key, given to the floors too: they check the bearer as the service does. */
const JWT_SIGNING_KEYS = `bench:${randomBytes(32).toString('base64url')}`;

async function json(url, method, body, headers = {}) {
  const r = await fetch(url, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${url}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The tenant setup of the spec: key upload, PSS proof, OAEP-sealed credentials, token. */
async function onboard(base) {
  const tenant = await json(`${base}/admin/tenants`, 'POST', { name: 'Bench Pix', allowedCidrs: ['127.0.0.1/32'], rateLimitPerMinute: 100000 }, { 'x-admin-key': ADMIN_KEY });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const key = await json(`${base}/v1/tenants/${tenant.tenantId}/keys`, 'POST', { publicKey });
  const signature = sign('sha256', Buffer.from(key.challenge, 'utf8'), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString('base64');
  await json(`${base}/v1/tenants/${tenant.tenantId}/keys/${key.keyId}/verify`, 'POST', { challenge: key.challenge, signature });
  const creds = await json(`${base}/v1/tenants/${tenant.tenantId}/keys/${key.keyId}/credentials`, 'POST');
  const open = (b64) => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(b64, 'base64')).toString('utf8');
  const tok = await json(`${base}/v1/oauth/token`, 'POST', { grant_type: 'client_credentials', client_id: open(creds.encryptedClientId), client_secret: open(creds.encryptedClientSecret) });
  return { tenantId: tenant.tenantId, token: tok.access_token };
}

async function main() {
  const db = await freshDatabase('bench_pix');
  const svc = await startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0' });
  const path = '/v1/banking/pix/automatic/recurrences';
  const body = JSON.stringify({
    amount: 49.9,
    currency: 'BRL',
    periodicity: 'MONTHLY',
    firstDueDate: saoPauloDay(10),
    expirationDate: saoPauloDay(400),
    dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY',
    payerName: 'Maria Souza',
    payerTaxId: '52998224725',
    description: 'Plano mensal',
  });
  try {
    const { tenantId, token } = await onboard(svc.url);
    // The bare server writes into the same, migrated database.
    const bare = await startBare(join(__dirname, 'bare/recurrences.js'), { DATABASE_URL: db.url, TENANT_ID: tenantId, JWT_SIGNING_KEYS });
    const floor = await startBare(join(__dirname, 'bare/recurrences-provider.js'), { DATABASE_URL: db.url, TENANT_ID: tenantId, JWT_SIGNING_KEYS });
    try {
      const json = { 'content-type': 'application/json' };
      const [b, f, s] = await alternate([
        { url: `${bare.url}${path}`, method: 'POST', headers: json, body },
        { url: `${floor.url}${path}`, method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body },
        { url: `${svc.url}${path}`, method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body },
      ]);
      pair('pix.recurrences.create (required-work floor)', b, f, { goal: 'reference: node:http + pg doing the provider call over HTTP and both inserts' });
      pair('pix.recurrences.create', b, s, { goal: 'ratio >= 0.5 and p99Ratio <= 3', ofFloor: +(s.rps / f.rps).toFixed(3) });
    } finally {
      await floor.stop();
      await bare.stop();
    }
  } finally {
    await svc.stop();
    await db.drop();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { onboard, JWT_SIGNING_KEYS };
