// POST /v1/acquiring/payments (a stored card, a sale) on ACQUIRER_PROVIDER=adyen, through the
// whole service (guard chain, validation, vault, payment + attempt rows, the Adyen call through
// its breaker, the answer with its webhook), vs its required-work floor in the same run:
// node:http + pg doing the same reads and writes and one POST /payments over keep-alive HTTPS
// to the same bare stub acquirer (bench/bare/card-payments-adyen.js, bench/bare/adyen-stub.js).
// 50 connections, alternating rounds, medians. Goal: the service reaches ≥ 0.5 of the floor.
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { freshDatabase, freePort, startService, startBare, alternate, pair, onboard, callJson } = require('./lib');
const { ensureDevCertificates } = require('../dist/src/platform/tls/dev-certificates');

const say = (m) => process.stderr.write(`card-payments-adyen bench: ${m}\n`);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-adyen-'));
  const pki = ensureDevCertificates(join(dataDir, 'certs'));
  const httpsPort = await freePort();
  const stub = await startBare(join(__dirname, 'bare/adyen-stub.js'), { STUB_CERT_DIR: pki.dir, STUB_HTTPS_PORT: String(httpsPort) });
  const checkoutUrl = `https://127.0.0.1:${httpsPort}/v72`;
  const db = await freshDatabase();
  const KEYS = {
    JWT_SIGNING_KEYS: `bench:${randomBytes(32).toString('base64url')}`,
    VAULT_MASTER_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    VAULT_FINGERPRINT_KEY: randomBytes(32).toString('base64'),
  };
  const svc = await startService({
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    ...KEYS,
    ACQUIRER_PROVIDER: 'adyen',
    ADYEN_CHECKOUT_URL: checkoutUrl,
    ADYEN_API_KEY: 'bench-adyen-api-key-0123456789abcdef',
    ADYEN_MERCHANT_ACCOUNT: 'BenchMerchant',
    NODE_EXTRA_CA_CERTS: join(pki.dir, 'ca.crt'),
  });
  say('service up, onboarding');
  const { tenantId, token } = await onboard(svc.url);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  await pg.query('UPDATE tenants SET rate_limit_per_minute = 1000000000 WHERE id = $1', [tenantId]);
  await new Promise((r) => setTimeout(r, 2100)); // the tenant cache TTL
  const auth = { authorization: `Bearer ${token}` };
  const card = await callJson(svc.url, 'POST', '/v1/acquiring/tokenize-card', { cardNumber: '4111111111111111', expirationMonth: '12', expirationYear: '2031', securityCode: '123' }, auth);
  const body = JSON.stringify({ amount: 150.75, tokenData: { slugStoredCard: card.slugStoredCard } });
  const first = await callJson(svc.url, 'POST', '/v1/acquiring/payments', JSON.parse(body), auth);
  if (first.status !== 'ACCEPTED') throw new Error(`the service's card payment on adyen answered ${JSON.stringify(first)}`);

  const floor = await startBare(join(__dirname, 'bare/card-payments-adyen.js'), {
    DATABASE_URL: db.url,
    ...KEYS,
    ADYEN_CHECKOUT_URL: checkoutUrl,
    STUB_CA_FILE: join(pki.dir, 'ca.crt'),
  });
  const opts = (url) => ({ url, requests: [{ method: 'POST', path: '/v1/acquiring/payments', headers: { 'content-type': 'application/json', ...auth }, body }] });
  const [f, s] = await alternate([opts(floor.url), opts(svc.url)]);
  await floor.stop();
  await svc.stop();
  await stub.stop();
  const [{ accepted, attempts }] = (
    await pg.query(`SELECT (SELECT count(*) FROM card_payments WHERE status = 'ACCEPTED')::int AS accepted, (SELECT count(*) FROM adyen_payment_attempts WHERE result_code = 'Authorised')::int AS attempts`)
  ).rows;
  await pg.end();
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
  const ratio = s.rps / f.rps;
  pair('card-payments-adyen', f, s, { floor: 'required work', ofFloor: +ratio.toFixed(3), goal: 0.5, met: ratio >= 0.5 && s.non2xx === 0 && f.non2xx === 0, accepted, attempts });
  if (s.non2xx || f.non2xx) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
