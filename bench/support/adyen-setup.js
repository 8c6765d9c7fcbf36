// The setup both Adyen card scenarios share: a bare stub acquirer on HTTPS (its CA from the
// service's own dev PKI), a fresh database, the compiled service on ACQUIRER_PROVIDER=adyen
// pointed at the stub, a tenant onboarded over HTTP with its limit raised out of the way, and a
// stored card. `floor(file)` starts that scenario's required-work floor against the same stub,
// database and keys; `stop()` stops all three and drops what was made.
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { freshDatabase, freePort, startService, startBare, onboard, callJson } = require('../lib');
const { ensureDevCertificates } = require('../../dist/kernel/platform/tls/dev-certificates');

async function startAdyenBench(tag, say) {
  const dataDir = mkdtempSync(join(tmpdir(), `pp-bench-${tag}-`));
  const pki = ensureDevCertificates(join(dataDir, 'certs'));
  const httpsPort = await freePort();
  const stub = await startBare(join(__dirname, '../bare/adyen-stub.js'), { STUB_CERT_DIR: pki.dir, STUB_HTTPS_PORT: String(httpsPort) });
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
  let floorServer = null;
  return {
    svc,
    pg,
    auth,
    card,
    floor: async (file) => (floorServer = await startBare(join(__dirname, '..', file), { DATABASE_URL: db.url, ...KEYS, ADYEN_CHECKOUT_URL: checkoutUrl, STUB_CA_FILE: join(pki.dir, 'ca.crt') })),
    /** Stops the floor, the service and the stub (so `pg` reads what they left), then `done()` drops the rest. */
    stopServers: async () => {
      await floorServer?.stop();
      await svc.stop();
      await stub.stop();
    },
    done: async () => {
      await pg.end();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

module.exports = { startAdyenBench };
