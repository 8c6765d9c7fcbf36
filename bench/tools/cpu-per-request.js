// CPU per request (user + system time of the server process, from /proc, Linux only) of the
// service and of its floor, measured in alternating rounds under the same autocannon load. On a
// shared machine req/s moves with whatever else runs; the CPU a process spends per request moves
// much less, so this tells a small change apart where `npm run bench` cannot. Not a goal of its
// own: `floorOverService` is comparable to the scenario's `ofFloor`.
// `node bench/tools/cpu-per-request.js auth-limits|recurrences` after `npx nest build` (DATABASE_URL set).
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { freshDatabase, startService, startBare, saoPauloDay } = require('../lib');

const ROUNDS = Number(process.env.BENCH_ROUNDS || 4);
const SECONDS = Number(process.env.BENCH_DURATION || 6);

function cpuSeconds(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in USER_HZ ticks
}

async function setup(scenario, db) {
  if (scenario === 'auth-limits') {
    const { onboard, JWT_SIGNING_KEYS } = require('../auth-limits');
    const floor = await startBare(join(__dirname, '../bare/auth-limits-nest.js'), { JWT_SIGNING_KEYS });
    const svc = await startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, REDIS_URL: '' });
    const o = await onboard(svc.url, db.url);
    const path = `/v1/banking/accounts/${o.tenantId}/limits`;
    const headers = { authorization: `Bearer ${o.token}` };
    return { floor, svc, floorOpts: { url: `${floor.url}${path}`, headers }, svcOpts: { url: `${svc.url}${path}`, headers } };
  }
  const { onboard } = require('../recurrences');
  const svc = await startService({ DATABASE_URL: db.url, BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0', REDIS_URL: '' });
  const { tenantId, token } = await onboard(svc.url);
  const floor = await startBare(join(__dirname, '../bare/recurrences-provider.js'), { DATABASE_URL: db.url, TENANT_ID: tenantId });
  const path = '/v1/banking/pix/automatic/recurrences';
  const body = JSON.stringify({
    amount: 49.9, currency: 'BRL', periodicity: 'MONTHLY', firstDueDate: saoPauloDay(10), expirationDate: saoPauloDay(400),
    dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY', payerName: 'Maria Souza', payerTaxId: '52998224725', description: 'Plano mensal',
  });
  const json = { 'content-type': 'application/json' };
  return {
    floor,
    svc,
    floorOpts: { url: `${floor.url}${path}`, method: 'POST', headers: json, body },
    svcOpts: { url: `${svc.url}${path}`, method: 'POST', headers: { ...json, authorization: `Bearer ${token}` }, body },
  };
}

async function main() {
  const scenario = process.argv[2] || 'auth-limits';
  const db = await freshDatabase('cpu');
  let s;
  try {
    s = await setup(scenario, db);
    const sides = [['floor', s.floor.proc.pid, s.floorOpts], ['service', s.svc.proc.pid, s.svcOpts]];
    for (const [, , opts] of sides) await autocannon({ connections: 50, ...opts, duration: 3 });
    const us = { floor: [], service: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, pid, opts] of sides) {
        const before = cpuSeconds(pid);
        const res = await autocannon({ connections: 50, ...opts, duration: SECONDS });
        us[name].push(Math.round(((cpuSeconds(pid) - before) * 1e6) / res.requests.total));
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const line = { name: `${scenario} cpu/request`, floorUs: us.floor, serviceUs: us.service, floorOverService: +(median(us.floor) / median(us.service)).toFixed(3) };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } finally {
    await s?.svc.stop();
    await s?.floor.stop();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
