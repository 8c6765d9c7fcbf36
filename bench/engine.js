// The billing engine at scale: 100 000 ACCEPTED recurrences due the same day → every billing
// created and SENT to the sandbox bank (over HTTP, in batches), timed beside a raw batched insert
// of 100 000 rows into a table shaped like pix_billings, in the same run. Goal: ≤ 4×.
//
// The recurrences are written ACCEPTED with a send date far ahead, then made due today in one
// statement; the clock starts when that commits (the engine's timer picks them up within
// BILLING_ENGINE_INTERVAL_MS). The end is polled with two index-only probes, not by counting rows,
// which would take PostgreSQL time from the engine itself; the counts are checked once at the end.
//
// Then the SQL floor (bench/bare/engine-sql.js), twice, each over N recurrences of its own: the
// rows the spec requires of each billing, and the rows the service writes, in set-based SQL on as
// many connections as the engine's concurrency. `sqlFloor.*Ratio` are against the same raw insert;
// `ofFloor` is the engine's time over the floor of its own rows (what the application adds).
// BENCH_ENGINE_FLOOR=false skips the floor.
const { Client } = require('pg');
const { ADMIN_KEY, freshDatabase, startService, saoPauloDay, knob, report } = require('./lib');
const { seedDueRecurrences, sqlFloor } = require('./bare/engine-sql');

const N = knob('BENCH_ENGINE_RECURRENCES', 100000);
const CONCURRENCY = process.env.BENCH_ENGINE_CONCURRENCY || '2';

async function createTenant(url) {
  const res = await fetch(`${url}/admin/tenants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-key': ADMIN_KEY },
    body: JSON.stringify({ name: 'Bench Engine', allowedCidrs: ['127.0.0.1/32'] }),
  });
  return res.json();
}

/**
 * The SQL floor (bench/bare/engine-sql.js) over the same N recurrences in a database of its own,
 * migrated by a service instance that is stopped before the clock starts.
 */
async function floor(rows) {
  const db = await freshDatabase('bench_engine_floor');
  try {
    const svc = await startService({ DATABASE_URL: db.url, BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0', WEBHOOK_WORKER_ENABLED: 'false' });
    const tenant = await createTenant(svc.url);
    await svc.stop();
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    await seedDueRecurrences(pg, tenant.tenantId, N, saoPauloDay(3)).finally(() => pg.end());
    return await sqlFloor(db.url, { rows, workers: Number(CONCURRENCY), n: N });
  } finally {
    await db.drop();
  }
}

async function engineRun() {
  const db = await freshDatabase('bench_engine');
  const svc = await startService({
    DATABASE_URL: db.url,
    BILLING_ENGINE_INTERVAL_MS: '100',
    BILLING_ENGINE_BATCH_SIZE: process.env.BENCH_ENGINE_BATCH || '5000',
    SANDBOX_BANK_TICK_MS: '0',
    PROVIDER_TIMEOUT_MS: '30000',
    DB_POOL_SIZE: '20',
    BILLING_ENGINE_CONCURRENCY: CONCURRENCY,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'warn',
    WEBHOOK_WORKER_ENABLED: process.env.BENCH_WEBHOOK_WORKER || 'true',
  });
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  try {
    const tenant = await createTenant(svc.url);
    const today = saoPauloDay();
    const due = saoPauloDay(3); // send date (due − 3 days) is today
    process.stderr.write(`inserting ${N} recurrences (service and bank) due ${due}…\n`);
    await seedDueRecurrences(pg, tenant.tenantId, N, due);

    // Baseline: a raw batched insert of N rows shaped like pix_billings (same indexes), 1000 per statement.
    await pg.query(`CREATE TABLE bench_raw_billings (LIKE pix_billings INCLUDING DEFAULTS INCLUDING INDEXES INCLUDING CONSTRAINTS)`);
    const ids = (await pg.query('SELECT id FROM pix_recurrences ORDER BY id')).rows.map((r) => r.id);
    const rawStart = process.hrtime.bigint();
    for (let i = 0; i < N; i += 1000) {
      const slice = ids.slice(i, i + 1000);
      await pg.query(
        `INSERT INTO bench_raw_billings (tenant_id, recurrence_id, cycle, kind, id_tx, amount_cents, due_date, next_attempt_at)
         SELECT $2, r, 0, 'REGULAR', 'BL' || md5(r::text), 4990, $3, now() FROM unnest($1::uuid[]) AS v(r)`,
        [slice, tenant.tenantId, due],
      );
    }
    const rawMs = Number(process.hrtime.bigint() - rawStart) / 1e6;

    process.stderr.write(`raw insert: ${rawMs.toFixed(0)} ms; starting the engine…\n`);
    await pg.query(`UPDATE pix_recurrences SET next_send_date = $1`, [today]);
    const start = process.hrtime.bigint();
    const deadline = Date.now() + 15 * 60 * 1000;
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
    const engineMs = Number(process.hrtime.bigint() - start) / 1e6;
    const { created, sent } = (await pg.query(`SELECT count(*)::int AS created, count(*) FILTER (WHERE status = 'SENT')::int AS sent FROM pix_billings`)).rows[0];
    if (created !== N || sent !== N) throw new Error(`after the run: ${created} created, ${sent} sent, ${N} expected`);
    const bank = (await pg.query(`SELECT count(*)::int AS n FROM sandbox.sandbox_bank_billings`)).rows[0].n;
    const dup = (await pg.query(`SELECT count(*)::int AS n FROM (SELECT 1 FROM pix_billings GROUP BY recurrence_id, cycle HAVING count(*) > 1) d`)).rows[0].n;
    return { engineMs, rawMs, sent, bank, dup };
  } finally {
    await pg.end();
    await svc.stop();
    await db.drop();
  }
}

async function main() {
  const run = await engineRun();
  const floors = {};
  if (process.env.BENCH_ENGINE_FLOOR !== 'false') {
    for (const rows of ['spec', 'service']) {
      process.stderr.write(`SQL floor (${rows} rows)…\n`);
      floors[rows] = await floor(rows);
    }
  }
  const ratio = (ms) => +(ms / run.rawMs).toFixed(2);
  const line = {
    name: 'pix.engine.100k',
    recurrences: N,
    billingsSent: run.sent,
    bankBillings: run.bank,
    duplicates: run.dup,
    engineMs: Math.round(run.engineMs),
    rawInsertMs: Math.round(run.rawMs),
    ratio: ratio(run.engineMs),
    goal: 'ratio <= 4',
    billingsPerSecond: Math.round(N / (run.engineMs / 1000)),
    ...(floors.spec === undefined
      ? {}
      : {
          sqlFloor: {
            specRowsMs: Math.round(floors.spec),
            specRowsRatio: ratio(floors.spec),
            serviceRowsMs: Math.round(floors.service),
            serviceRowsRatio: ratio(floors.service),
            workers: Number(CONCURRENCY),
          },
          ofFloor: +(run.engineMs / floors.service).toFixed(2),
        }),
  };
  report(line);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
