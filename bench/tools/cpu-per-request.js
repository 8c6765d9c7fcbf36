// CPU per request (user + system time of the server process, from /proc, Linux only) of the
// service and of its floor, measured in alternating rounds under the same autocannon load. On a
// shared machine req/s moves with whatever else runs; the CPU a process spends per request moves
// much less, so this tells a small change apart where `npm run bench` cannot. Not a goal of its
// own: `floorOverService` is comparable to the scenario's `ofFloor`.
// `node bench/tools/cpu-per-request.js auth-limits|recurrences|auth-limits-tracing` after `npx nest build`
// (DATABASE_URL set). `auth-limits-tracing`: the limits route's service plain and with tracing on at
// sampler ratios 0.1 and 1 (as the bench's tracing variants), `cost` = 1 - plain ÷ traced CPU, the
// share of throughput tracing takes from a CPU-bound replica (other ratios: CPU_TRACING_RATIOS=0,0.1,1).
// Each figure is also given by user time alone (`userUs`, `userCost`, `floorOverServiceUser`): on
// loopback the kernel's work for the answer's write (waking the load generator) is charged to the
// server as system time, and it grows when the load generator idles more, so it follows a slower
// side rather than measuring its own code.
// CPU_SERVICE_ENV (a JSON object) adds settings to the service's environment, to see what a setting
// costs a loaded replica, e.g. CPU_SERVICE_ENV='{"WEBHOOK_POLL_INTERVAL_MS":"60000"}'.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { freshDatabase, startService, startBare, saoPauloDay } = require('../lib');

/** Settings added to every service this tool starts (CPU_SERVICE_ENV). */
const SERVICE_ENV = JSON.parse(process.env.CPU_SERVICE_ENV || '{}');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 4);
const SECONDS = Number(process.env.BENCH_DURATION || 6);

/** A process's CPU seconds so far: user (its JavaScript and native code) and system (the kernel's work for it, its socket writes included). */
function cpuSeconds(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(f[11]) / 100, system: Number(f[12]) / 100 }; // utime, stime, in USER_HZ ticks
}

async function setup(scenario, db) {
  if (scenario === 'auth-limits-tracing') {
    const { onboard, otlpSink, JWT_SIGNING_KEYS } = require('../auth-limits');
    const sink = await otlpSink({ countSpans: true });
    const plain = { DATABASE_URL: db.url, JWT_SIGNING_KEYS, REDIS_URL: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', ...SERVICE_ENV };
    const traced = (ratio) => ({ ...plain, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio });
    // CPU_TRACING_RATIOS=0,0.1,1 adds sides (ratio 0: the hooks with nothing sampled)
    const ratios = Object.fromEntries((process.env.CPU_TRACING_RATIOS || '0.1,1').split(',').map((r) => [`tracing ${Math.round(Number(r) * 100)} %`, Number(r)]));
    const servers = [['plain', await startService(plain)]];
    for (const [label, r] of Object.entries(ratios)) servers.push([label, await startService(traced(String(r)))]);
    const o = await onboard(servers[0][1].url, db.url);
    const path = `/v1/banking/accounts/${o.tenantId}/limits`;
    const headers = { authorization: `Bearer ${o.token}` };
    return {
      sides: servers.map(([name, p]) => [name, p, { url: `${p.url}${path}`, headers }]),
      ratios,
      sink,
      stop: async () => { for (const [, p] of servers) await p.stop(); await sink.stop(); },
    };
  }
  if (scenario === 'auth-limits') {
    const { onboard, JWT_SIGNING_KEYS } = require('../auth-limits');
    const floor = await startBare(join(__dirname, '../bare/auth-limits-nest.js'), { JWT_SIGNING_KEYS });
    const svc = await startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, REDIS_URL: '', ...SERVICE_ENV });
    const o = await onboard(svc.url, db.url);
    const path = `/v1/banking/accounts/${o.tenantId}/limits`;
    const headers = { authorization: `Bearer ${o.token}` };
    return pairOf(floor, svc, { url: `${floor.url}${path}`, headers }, { url: `${svc.url}${path}`, headers });
  }
  const { onboard, JWT_SIGNING_KEYS } = require('../recurrences');
  const svc = await startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0', REDIS_URL: '', ...SERVICE_ENV });
  const { tenantId, token } = await onboard(svc.url);
  const floor = await startBare(join(__dirname, '../bare/recurrences-provider.js'), { DATABASE_URL: db.url, TENANT_ID: tenantId, JWT_SIGNING_KEYS });
  const path = '/v1/banking/pix/automatic/recurrences';
  const body = JSON.stringify({
    amount: 49.9, currency: 'BRL', periodicity: 'MONTHLY', firstDueDate: saoPauloDay(10), expirationDate: saoPauloDay(400),
    dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY', payerName: 'Maria Souza', payerTaxId: '52998224725', description: 'Plano mensal',
  });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  return pairOf(floor, svc, { url: `${floor.url}${path}`, method: 'POST', headers, body }, { url: `${svc.url}${path}`, method: 'POST', headers, body });
}

function pairOf(floor, svc, floorOpts, svcOpts) {
  return { sides: [['floor', floor, floorOpts], ['service', svc, svcOpts]], stop: async () => { await svc.stop(); await floor.stop(); } };
}

async function main() {
  const scenario = process.argv[2] || 'auth-limits';
  const db = await freshDatabase('cpu');
  let s;
  try {
    s = await setup(scenario, db);
    const sides = s.sides;
    for (const [, , opts] of sides) await autocannon({ connections: 50, ...opts, duration: 3 });
    const us = Object.fromEntries(sides.map(([name]) => [name, []]));
    const userUs = Object.fromEntries(sides.map(([name]) => [name, []]));
    const spansBefore = s.sink?.spans() ?? 0;
    let expected = 0;
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, { proc: { pid } }, opts] of sides) {
        const before = cpuSeconds(pid);
        const res = await autocannon({ connections: 50, ...opts, duration: SECONDS });
        // a side that refuses (401, 404, 429) does less work than one that answers
        if (res.non2xx || res.errors) throw new Error(`${name}: ${res.non2xx} non-2xx answers, ${res.errors} errors`);
        const after = cpuSeconds(pid);
        const per = (seconds) => Math.round((seconds * 1e7) / res.requests.total) / 10;
        us[name].push(per(after.user + after.system - before.user - before.system));
        userUs[name].push(per(after.user - before.user));
        expected += (s.ratios?.[name] ?? 0) * res.requests.total;
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    // the median of the rounds' own ratios: a slow spell moves both sides of a round together
    const paired = (a, b) => median(a.map((x, i) => x / b[i]));
    const line =
      scenario === 'auth-limits-tracing'
        ? {
            name: `${scenario} cpu/request`,
            us,
            cost: Object.fromEntries(sides.slice(1).map(([n]) => [n, +(1 - paired(us.plain, us[n])).toFixed(3)])),
            // the same by user time alone: tracing's own code, without the kernel's share (the answer's write on loopback)
            userUs,
            userCost: Object.fromEntries(sides.slice(1).map(([n]) => [n, +(1 - paired(userUs.plain, userUs[n])).toFixed(3)])),
          }
        : {
            name: `${scenario} cpu/request`,
            floorUs: us.floor,
            serviceUs: us.service,
            floorOverService: +paired(us.floor, us.service).toFixed(3),
            floorOverServiceUser: +paired(userUs.floor, userUs.service).toFixed(3),
          };
    if (s.sink) {
      // spans the SDK dropped (its queue full while an export is out) cost nothing and would flatter the cost
      await new Promise((r) => setTimeout(r, 6000)); // the batch processor's last partial batch (5 s delay)
      line.spansExported = +((s.sink.spans() - spansBefore) / expected).toFixed(3);
    }
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } finally {
    await s?.stop();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
