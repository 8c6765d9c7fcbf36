// The billing engine on BANK_PROVIDER=pix-api: 100 000 ACCEPTED recurrences due the same day →
// every billing created and sent with its own `PUT /cobr/{txid}` to the sandbox PSP (in the
// service's process, over mutual TLS with an OAuth2 token) and SENT; against its floor, in the
// same run: the same SQL and the same HTTP calls to a bare node:https PSP stub doing the PSP's
// one statement (bench/bare/engine-pix-api.js). Goal: ≤ 2× the floor.
//
// Each side runs in a fresh database of its own, seeded alike (ours with an idRec, the PSP's
// approved recs); the clock starts when the recurrences are made due in one statement.
const { randomUUID } = require('node:crypto');
const { Client } = require('pg');
const { ADMIN_KEY, freshDatabase, startService, saoPauloDay, knob, report } = require('./lib');
const { pixApiFloor } = require('./bare/engine-pix-api');

const N = knob('BENCH_ENGINE_RECURRENCES', 100000);
const CONCURRENCY = process.env.BENCH_ENGINE_CONCURRENCY || '2';
const CHUNK = 5000;

async function createTenant(url) {
  const res = await fetch(`${url}/admin/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-key': ADMIN_KEY },
    body: JSON.stringify({ name: 'Bench Engine pix-api', allowedCidrs: ['127.0.0.1/32'] }),
  });
  return res.json();
}

/** ACCEPTED recurrences on both sides: ours with the PSP's idRec, the PSP's approved rec (PERMITE_3R_7D). */
async function seed(pg, tenantId, due) {
  const day = saoPauloDay(0).replace(/-/g, '');
  for (let i = 0; i < N; i += CHUNK) {
    const k = Math.min(CHUNK, N - i);
    const ids = Array.from({ length: k }, () => randomUUID());
    const tx = ids.map((_, j) => `RRBENCH${String(i + j).padStart(25, '0')}`);
    const recs = ids.map((_, j) => `RR99999008${day}${String(i + j).padStart(11, '0')}`);
    await pg.query(
      `INSERT INTO pix_recurrences (id, tenant_id, id_tx, status, amount_cents, periodicity, first_due_date, day_adjustment, payer_name, payer_tax_id, authorization_url, next_send_date, id_rec)
       SELECT id, $2, x, 'ACCEPTED', 4990, 'MONTHLY', $3, 'KEEP_DUE_DATE', 'Bench Payer', '52998224725', 'http://bench/authorize', $4, r
       FROM unnest($1::uuid[], $5::text[], $6::text[]) AS v(id, x, r)`,
      [ids, tenantId, due, '2999-01-01', tx, recs],
    );
    await pg.query(
      `INSERT INTO sandbox.sandbox_bank_recurrences (recurrence_id, id_tx, receiver_id, receiver_name, status, amount_cents, periodicity, first_due_date, day_adjustment,
         payer_name, payer_tax_id, authorization_deadline, id_rec, contrato, politica_retentativa)
       SELECT r, r, 'bench', 'Bench Engine', 'ACCEPTED', 4990, 'MONTHLY', $2, 'KEEP_DUE_DATE', 'Bench Payer', '52998224725', $2, r, replace(id::text, '-', ''), 'PERMITE_3R_7D'
       FROM unnest($1::uuid[], $3::text[]) AS v(id, r)`,
      [ids, due, recs],
    );
  }
  await pg.query('ANALYZE');
}

const SERVICE_ENV = { BANK_PROVIDER: 'pix-api', SANDBOX_BANK_TICK_MS: '0', PIX_API_RECONCILE_INTERVAL_MS: '0', WEBHOOK_WORKER_ENABLED: 'false', LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn' };

async function engineRun() {
  const db = await freshDatabase('bench_engine_pixapi');
  const svc = await startService({
    ...SERVICE_ENV,
    DATABASE_URL: db.url,
    BILLING_ENGINE_INTERVAL_MS: '100',
    BILLING_ENGINE_BATCH_SIZE: process.env.BENCH_ENGINE_BATCH || '5000',
    DB_POOL_SIZE: '20',
    BILLING_ENGINE_CONCURRENCY: CONCURRENCY,
  });
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  try {
    const tenant = await createTenant(svc.url);
    const today = saoPauloDay();
    process.stderr.write(`inserting ${N} recurrences (service and PSP) due ${saoPauloDay(3)}…\n`);
    await seed(pg, tenant.tenantId, saoPauloDay(3));
    process.stderr.write('starting the engine…\n');
    await pg.query(`UPDATE pix_recurrences SET next_send_date = $1`, [today]);
    const start = process.hrtime.bigint();
    const deadline = Date.now() + 20 * 60 * 1000;
    for (;;) {
      if (Date.now() > deadline) throw new Error('timeout waiting for the engine');
      await new Promise((r) => setTimeout(r, 200));
      const { rows } = await pg.query(
        `SELECT EXISTS (SELECT 1 FROM pix_recurrences WHERE status IN ('ACCEPTED','ACTIVE') AND next_send_date <= $1) AS due,
                EXISTS (SELECT 1 FROM pix_billings WHERE status IN ('PENDING_SEND','SEND_FAILED') AND next_attempt_at IS NOT NULL) AS unsent`,
        [today],
      );
      if (!rows[0].due && !rows[0].unsent) break;
    }
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const { sent, failed } = (await pg.query(`SELECT count(*) FILTER (WHERE status = 'SENT')::int AS sent, count(*) FILTER (WHERE status = 'SEND_FAILED')::int AS failed FROM pix_billings`)).rows[0];
    const cobrs = (await pg.query(`SELECT count(*)::int AS n FROM sandbox.sandbox_bank_billings WHERE id_rec IS NOT NULL`)).rows[0].n;
    if (sent !== N || cobrs !== N) throw new Error(`after the run: ${sent} SENT, ${failed} SEND_FAILED, ${cobrs} cobrs at the PSP, ${N} expected`);
    return { ms, sent, cobrs };
  } finally {
    await pg.end();
    await svc.stop();
    await db.drop();
  }
}

async function floorRun() {
  const db = await freshDatabase('bench_engine_pixapi_floor');
  try {
    const svc = await startService({ ...SERVICE_ENV, DATABASE_URL: db.url, BILLING_ENGINE_INTERVAL_MS: '0' });
    const tenant = await createTenant(svc.url);
    await svc.stop();
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    await seed(pg, tenant.tenantId, saoPauloDay(3)).finally(() => pg.end());
    process.stderr.write('floor: same SQL, same PUT /cobr calls to a bare PSP stub…\n');
    return await pixApiFloor(db.url, { workers: Number(CONCURRENCY), n: N });
  } finally {
    await db.drop();
  }
}

async function main() {
  const run = await engineRun();
  const floorMs = await floorRun();
  report({
    name: 'pix-api.engine.100k',
    recurrences: N,
    billingsSent: run.sent,
    cobrsAtPsp: run.cobrs,
    engineMs: Math.round(run.ms),
    floorMs: Math.round(floorMs),
    ofFloor: +(run.ms / floorMs).toFixed(2),
    goal: 'ofFloor <= 2',
    billingsPerSecond: Math.round(N / (run.ms / 1000)),
    workers: Number(CONCURRENCY),
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
