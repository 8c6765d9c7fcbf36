// POST /v1/acquiring/tokenize-card through the whole service (guard chain, validation, vault,
// one INSERT … RETURNING) vs a bare node:http + pg server doing the same encryption and insert.
// 50 connections, 10 s after a warm-up, in alternating rounds; every request tokenizes a
// different card. Goal: the service reaches at least 50 % of the bare req/s. One JSON line.
const { randomBytes, randomInt } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { freshDatabase, startService, startBare, load, pair, onboard, knob } = require('./lib');

const KEYS = {
  // the service's signing key, given to both sides so the bare server checks the token as the service does
  JWT_SIGNING_KEYS: `bench:${randomBytes(32).toString('base64url')}`,
  VAULT_MASTER_KEYS: `bench:${randomBytes(32).toString('base64')}`,
  VAULT_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
  DATA_DIR: mkdtempSync(join(tmpdir(), 'pp-bench-tokenize-')),
};

/** A Luhn-valid 16-digit Visa number, different on (almost) every call. */
function randomPan() {
  const d = [4];
  for (let i = 0; i < 14; i++) d.push(randomInt(10));
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let x = d[14 - i];
    if (i % 2 === 0) {
      x *= 2;
      if (x > 9) x -= 9;
    }
    sum += x;
  }
  d.push((10 - (sum % 10)) % 10);
  return d.join('');
}

function body() {
  return JSON.stringify({ cardNumber: randomPan(), expirationMonth: '12', expirationYear: '2031', securityCode: String(randomInt(100, 1000)) });
}

function scenario(url, token) {
  return {
    url,
    requests: [
      {
        method: 'POST',
        path: '/v1/acquiring/tokenize-card',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        setupRequest: (req) => ({ ...req, body: body() }),
      },
    ],
  };
}

/** Child processes still running: stopped on failure too. */
const running = new Set();
async function stop(p) {
  running.delete(p);
  await p.stop();
}

/** Alternating measured rounds per server (BENCH_ROUNDS, default 2). */
const ROUNDS = knob('BENCH_ROUNDS', 2);

/** Rounds summed: mean req/s, worst p50/p99, all non-2xx. */
function merge(rs) {
  return {
    rps: Math.round(rs.reduce((a, r) => a + r.rps, 0) / rs.length),
    p50: Math.max(...rs.map((r) => r.p50)),
    p99: Math.max(...rs.map((r) => r.p99)),
    requests: rs.reduce((a, r) => a + r.requests, 0),
    non2xx: rs.reduce((a, r) => a + r.non2xx, 0),
    rounds: rs.map((r) => r.rps),
  };
}

const say = (m) => process.stderr.write(`tokenize bench: ${m}\n`);

async function main() {
  const db = await freshDatabase();
  // 1. the service migrates the schema and onboards a tenant (the bench is not to be rate limited)
  const svc = await startService({ DATABASE_URL: db.url, ...KEYS });
  running.add(svc);
  say('service up, onboarding');
  const { tenantId, token } = await onboard(svc.url);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  await pg.query('UPDATE tenants SET rate_limit_per_minute = 100000000 WHERE id = $1', [tenantId]);

  // 2. both servers up on the same schema; measured in alternating rounds (bare, service, …) so
  //    a change in the load of the (shared) machine hits both alike. Each idles while the other runs.
  const bare = await startBare(join(__dirname, 'bare/tokenize.js'), { DATABASE_URL: db.url, BARE_TENANT_ID: tenantId, ...KEYS });
  running.add(bare);
  const rounds = { bare: [], service: [] };
  for (let i = 0; i < ROUNDS; i++) {
    say(`round ${i + 1}/${ROUNDS}: bare`);
    rounds.bare.push(await load(scenario(bare.url, token)));
    say(`round ${i + 1}/${ROUNDS}: service`);
    rounds.service.push(await load(scenario(svc.url, token)));
  }
  await stop(bare);
  await stop(svc);
  const b = merge(rounds.bare);
  const s = merge(rounds.service);
  const [{ cards, tokens }] = (await pg.query('SELECT (SELECT count(*) FROM stored_cards)::int AS cards, (SELECT count(*) FROM card_tokens)::int AS tokens')).rows;
  await pg.end();
  await db.drop();
  rmSync(KEYS.DATA_DIR, { recursive: true, force: true });
  const ratio = s.rps / b.rps;
  pair('tokenize-card', b, s, { goal: 0.5, met: ratio >= 0.5 && s.non2xx === 0, storedCards: cards, tokens });
}

main().catch(async (e) => {
  console.error(e);
  for (const p of running) await p.stop().catch(() => undefined);
  process.exit(1);
});
