// Authenticated GET /v1/banking/accounts/{id}/limits (allow-list, HS256 JWT, revocation check,
// rate limit; in-process counters) through the whole service vs a bare node:http route that
// verifies the same JWT by hand, in alternating rounds. With REDIS_URL set, also the service
// with Redis counters. Goal: in-process ≥ 60 % of bare req/s.
//
// The in-process rounds also run the framework floor (bare/auth-limits-nest.js: an empty NestJS +
// Fastify app, one guard with the same hand-rolled check, the same JSON) in turn with the other
// two, so one run tells how much of the gap is the framework's and how much is the service's.
//
// `auth.limits (tracing on)`: the in-process service with OpenTelemetry on (every request
// sampled, spans exported over OTLP/HTTP protobuf to a sink in this process that only drains
// them), against the same bare route: its ratio beside the in-process one is what tracing costs.
// BENCH_TRACING=0 leaves it out.
const { constants, generateKeyPairSync, privateDecrypt, sign } = require('node:crypto');
const { createServer } = require('node:http');
const { join } = require('node:path');
const { Client } = require('pg');
const { ADMIN_KEY, freshDatabase, startService, startBare, alternate, compare, pair } = require('./lib');

const JWT_SIGNING_KEYS = 'bench:bench-signing-secret-0123456789abcdef0123';

async function post(url, body, headers = {}) {
  const res = await fetch(url, { method: 'POST', headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The real onboarding flow over HTTP; the tenant's limit is then raised out of the way. */
async function onboard(base, dbUrl) {
  const t = await post(`${base}/admin/tenants`, { name: 'Bench', allowedCidrs: ['127.0.0.1/32', '::1/128'] }, { 'X-Admin-Key': ADMIN_KEY });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const keys = `${base}/v1/tenants/${t.tenantId}/keys`;
  const k = await post(keys, { publicKey });
  const signature = sign('sha256', Buffer.from(k.challenge), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString('base64');
  await post(`${keys}/${k.keyId}/verify`, { challenge: k.challenge, signature });
  const c = await post(`${keys}/${k.keyId}/credentials`);
  const dec = (b) => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(b, 'base64')).toString();
  const tok = await post(`${base}/v1/oauth/token`, { grant_type: 'client_credentials', client_id: dec(c.encryptedClientId), client_secret: dec(c.encryptedClientSecret) });
  const pg = new Client({ connectionString: dbUrl });
  await pg.connect();
  await pg.query('UPDATE tenants SET rate_limit_per_minute = 1000000000 WHERE id = $1', [t.tenantId]);
  await pg.end();
  await new Promise((r) => setTimeout(r, 2100)); // the tenant cache TTL
  return { tenantId: t.tenantId, token: tok.access_token };
}

/** An OTLP/HTTP endpoint that accepts and drops every export (the collector's cost is not ours). */
async function otlpSink() {
  let exports = 0;
  const server = createServer((req, res) => {
    exports++;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, exports: () => exports, stop: () => new Promise((r) => server.close(r)) };
}

async function main() {
  const db = await freshDatabase();
  const sink = process.env.BENCH_TRACING === '0' ? null : await otlpSink();
  const bare = await startBare(join(__dirname, 'bare/auth-limits.js'), { JWT_SIGNING_KEYS });
  const floor = await startBare(join(__dirname, 'bare/auth-limits-nest.js'), { JWT_SIGNING_KEYS });
  const variants = [['auth.limits (in-process)', { REDIS_URL: '' }]];
  if (process.env.REDIS_URL) variants.push(['auth.limits (redis)', { REDIS_URL: process.env.REDIS_URL }]);
  if (sink) {
    variants.push([
      'auth.limits (tracing on)',
      { REDIS_URL: '', OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'always_on', OTEL_SERVICE_NAME: 'payments-bench' },
    ]);
  }
  try {
    for (const [name, env] of variants) {
      // tracing off unless the variant turns it on, whatever the shell's OTEL_* say
      const svc = await startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', ...env });
      try {
        const o = await onboard(svc.url, db.url);
        const path = `/v1/banking/accounts/${o.tenantId}/limits`;
        const headers = { authorization: `Bearer ${o.token}` };
        if (name.includes('in-process')) {
          const [b, f, s] = await alternate([{ url: `${bare.url}${path}`, headers }, { url: `${floor.url}${path}`, headers }, { url: `${svc.url}${path}`, headers }]);
          pair('auth.limits (Nest floor)', b, f, { goal: 'reference: an empty NestJS + Fastify app with the same check' });
          pair(name, b, s, { goal: 'ratio >= 0.6', ofFloor: +(s.rps / f.rps).toFixed(3) });
        } else {
          const r = await compare({ url: `${bare.url}${path}`, headers }, { url: `${svc.url}${path}`, headers });
          const tracing = name.includes('tracing') ? { goal: 'reported: compare with the in-process ratio', otlpExports: sink.exports() } : { goal: 'reported' };
          pair(name, r.bare, r.service, tracing);
        }
      } finally {
        await svc.stop();
      }
    }
  } finally {
    await bare.stop();
    await floor.stop();
    await sink?.stop();
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
