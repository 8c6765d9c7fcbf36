// Authenticated POST /v1/banking/pix/automatic/recurrences with BANK_PROVIDER=pix-api: the
// gateway, validation, then POST /locrec and POST /rec to the sandbox PSP over mutual TLS with
// an OAuth2 token, then the insert; against its required-work floor (bare/recurrences-pix-api.js:
// node:http + pg + the same two calls to an in-process node:https PSP doing the same inserts)
// and the bare insert, in alternating rounds. Goal: ≥ 0.5 of the floor (`ofFloor`).
const { join } = require('node:path');
const { freshDatabase, startService, startBare, alternate, pair, saoPauloDay } = require('./lib');
const { onboard, JWT_SIGNING_KEYS } = require('./recurrences');

async function main() {
  const db = await freshDatabase('bench_pixapi');
  const svc = await startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, BANK_PROVIDER: 'pix-api', BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0' });
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
    const bare = await startBare(join(__dirname, 'bare/recurrences.js'), { DATABASE_URL: db.url, TENANT_ID: tenantId, JWT_SIGNING_KEYS });
    const floor = await startBare(join(__dirname, 'bare/recurrences-pix-api.js'), { DATABASE_URL: db.url, TENANT_ID: tenantId, JWT_SIGNING_KEYS });
    try {
      const json = { 'content-type': 'application/json' };
      const [b, f, s] = await alternate([
        { url: `${bare.url}${path}`, method: 'POST', headers: json, body },
        { url: `${floor.url}${path}`, method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body },
        { url: `${svc.url}${path}`, method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body },
      ]);
      pair('pix-api.recurrences.create (required-work floor)', b, f, { goal: 'reference: node:http + pg + POST /locrec and POST /rec over mutual TLS to an in-process PSP' });
      pair('pix-api.recurrences.create', b, s, { goal: 'ofFloor >= 0.5', ofFloor: +(s.rps / f.rps).toFixed(3) });
    } finally {
      await floor.stop();
      await bare.stop();
    }
  } finally {
    await svc.stop();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
