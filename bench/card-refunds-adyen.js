// POST /v1/acquiring/payments/{paymentId}/refunds (a partial refund of R$ 0.01 of a captured sale)
// on ACQUIRER_PROVIDER=adyen, through the whole service (guard chain, validation, the payment and
// its balance read, the reserve + refund + webhook transaction, POST /payments/{psp}/refunds
// through the acquirer's breaker, the answer kept), vs its required-work floor in the same run:
// node:http + pg doing the same reads and writes and one refund call over keep-alive HTTPS to
// the same bare stub acquirer (bench/bare/card-refunds-adyen.js, bench/bare/adyen-stub.js).
// The setup makes BENCH_REFUND_PAYMENTS (default 100) sales of R$ 1 000 000 through the service;
// each side spreads its calls over them in turn, so 50 connections rarely wait on one balance row.
// 50 connections, alternating rounds, medians. Goal: the service reaches ≥ 0.5 of the floor.
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { freshDatabase, freePort, startService, startBare, alternate, pair, onboard, callJson } = require('./lib');
const { ensureDevCertificates } = require('../dist/src/platform/tls/dev-certificates');

const say = (m) => process.stderr.write(`card-refunds-adyen bench: ${m}\n`);
const PAYMENTS = Number(process.env.BENCH_REFUND_PAYMENTS || 100);

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-adyen-refunds-'));
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
  const paymentIds = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const p = await callJson(svc.url, 'POST', '/v1/acquiring/payments', { amount: 1_000_000, tokenData: { slugStoredCard: card.slugStoredCard } }, auth);
    if (p.status !== 'ACCEPTED') throw new Error(`the service's card payment on adyen answered ${JSON.stringify(p)}`);
    paymentIds.push(p.paymentId);
  }
  say(`${PAYMENTS} payments of R$ 1 000 000 made`);
  const body = JSON.stringify({ amount: 0.01, reason: 'requested_by_customer' });
  const first = await callJson(svc.url, 'POST', `/v1/acquiring/payments/${paymentIds[0]}/refunds`, JSON.parse(body), auth);
  if (first.status !== 'PENDING' || !first.providerReference) throw new Error(`the service's refund on adyen answered ${JSON.stringify(first)}`);

  const floor = await startBare(join(__dirname, 'bare/card-refunds-adyen.js'), {
    DATABASE_URL: db.url,
    ...KEYS,
    ADYEN_CHECKOUT_URL: checkoutUrl,
    STUB_CA_FILE: join(pki.dir, 'ca.crt'),
  });
  const floorFirst = await callJson(floor.url, 'POST', `/v1/acquiring/payments/${paymentIds[1 % PAYMENTS]}/refunds`, JSON.parse(body), auth);
  if (floorFirst.status !== 'PENDING' || !floorFirst.providerReference) throw new Error(`the floor's refund answered ${JSON.stringify(floorFirst)}`);
  // every request takes the next payment in turn (per side), so the calls spread over all of them
  const opts = (url) => {
    let n = 0;
    return {
      url,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth },
          body,
          setupRequest: (req) => ({ ...req, path: `/v1/acquiring/payments/${paymentIds[n++ % PAYMENTS]}/refunds` }),
        },
      ],
    };
  };
  const [f, s] = await alternate([opts(floor.url), opts(svc.url)]);
  await floor.stop();
  await svc.stop();
  await stub.stop();
  const [{ refunds, taken, reserved }] = (
    await pg.query(
      `SELECT (SELECT count(*) FROM refunds)::int AS refunds, (SELECT count(*) FROM refunds WHERE status = 'PENDING' AND provider_reference IS NOT NULL)::int AS taken,
              (SELECT sum(refunded_cents) FROM refund_balances)::int AS reserved`,
    )
  ).rows;
  await pg.end();
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
  const ratio = s.rps / f.rps;
  pair('card-refunds-adyen', f, s, { floor: 'required work', ofFloor: +ratio.toFixed(3), goal: 0.5, met: ratio >= 0.5 && s.non2xx === 0 && f.non2xx === 0, refunds, taken, reserved });
  if (s.non2xx || f.non2xx) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
