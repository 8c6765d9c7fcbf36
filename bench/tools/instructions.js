// Instructions per request of the limits route, counted by valgrind's callgrind: the service, its
// Nest floor and the bare server (or the service plain and with tracing), each under callgrind with
// counting off while it boots and warms up, then counted over REPEATS windows of INSTR_REQUESTS
// requests (10 connections). A count ignores what else the machine runs, and each window's dump
// names where the native part of the count went (`callgrind_annotate <dir>/cg.<pid>.<n>`: V8's
// builtins, its garbage collector, llhttp; JIT-compiled JavaScript shows as bare addresses), which
// is what it is for. It is not the bench's goal: the kernel's side of every syscall (the answer's
// write is half of a busy profile) is not counted, and the per-request figure of the service moves
// by ±30 % between windows, with the major collections a window happens to hold (concurrent
// marking alone was 15 % of one window), so `pooled` (all windows' count over all their requests)
// is the figure to read, and two runs still differ (docs/decisions/request-cost.md).
//
// `node bench/tools/instructions.js [auth-limits|auth-limits-tracing]` after `npx nest build`
// (DATABASE_URL set, valgrind installed; never rebuild while it runs). What a process does while
// idle (the service's periodic jobs fire on the wall clock, and under callgrind a request takes
// ~50× longer, so a window holds ~50× more of them per request) is counted over an idle window and
// subtracted at its rate (`idleShare`). `INSTR_SIDES=service` counts only the sides named.
const { execFileSync } = require('node:child_process');
const { mkdtempSync, readdirSync, readFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { freshDatabase, startService, startBare } = require('../lib');

const REQUESTS = Number(process.env.INSTR_REQUESTS || 4000);
const WARMUP = Number(process.env.INSTR_WARMUP || 20000);
const IDLE_MS = Number(process.env.INSTR_IDLE_MS || 30000);
const REPEATS = Number(process.env.INSTR_REPEATS || 5);

function callgrind(dir) {
  return {
    wrap: ['valgrind', '--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', '--dump-instr=no', `--callgrind-out-file=${dir}/cg.%p`],
    readyMs: 300000,
  };
}

// vgdb finds the process by a file named after USER and HOST as the process saw them, and the
// service runs with HOST=127.0.0.1: the controller is given the same
function control(pid, ...args) {
  const env = { ...process.env, HOST: hosts.get(pid) };
  if (env.HOST === undefined) delete env.HOST;
  return execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'pipe', env });
}
const hosts = new Map();

/** The instructions the process executed since the last zeroing: dumps and reads the newest dump's totals. */
function dumpTotal(dir, pid) {
  control(pid, '-d');
  const files = readdirSync(dir).filter((f) => f.startsWith(`cg.${pid}.`));
  const newest = files.sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop())).pop();
  const m = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(dir, newest), 'utf8'));
  return Number(m[1]);
}

/**
 * Instructions per request of one side: `REPEATS` counted windows, each less its idle share;
 * `pooled` is all windows' instructions over all their requests (a major GC lands in one window
 * and is still the requests' cost, so the pool, not a window, is the figure).
 */
async function measure(dir, pid, opts) {
  await autocannon({ connections: 10, ...opts, amount: WARMUP });
  control(pid, '-i', 'on');
  control(pid, '-z');
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const idlePerMs = dumpTotal(dir, pid) / IDLE_MS;
  const out = [];
  const idle = [];
  let work = 0;
  let requests = 0;
  for (let i = 0; i < REPEATS; i++) {
    control(pid, '-z');
    const t0 = Date.now();
    const r = await autocannon({ connections: 10, ...opts, amount: REQUESTS });
    const ms = Date.now() - t0;
    const total = dumpTotal(dir, pid);
    if (r.non2xx || r.errors) throw new Error(`${r.non2xx} non-2xx answers, ${r.errors} errors: not the route's work`);
    out.push(Math.round((total - idlePerMs * ms) / r.requests.total));
    work += total - idlePerMs * ms;
    requests += r.requests.total;
    idle.push(+((idlePerMs * ms) / total).toFixed(3));
  }
  control(pid, '-i', 'off');
  // idleShare: the part of each window's count that was the idle rate's, subtracted
  return { pooled: Math.round(work / requests), perRequest: out, idleShare: idle };
}

async function main() {
  const scenario = process.argv[2] || 'auth-limits';
  const dir = mkdtempSync(join(tmpdir(), 'instr-'));
  const db = await freshDatabase('instr');
  const { onboard, otlpSink, JWT_SIGNING_KEYS } = require('../auth-limits');
  const started = [];
  let sink = null;
  try {
    const plain = { DATABASE_URL: db.url, JWT_SIGNING_KEYS, REDIS_URL: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '' };
    // INSTR_SIDES=service (comma-separated) starts and counts only those sides, for a quicker look at one change
    const only = process.env.INSTR_SIDES?.split(',');
    const cg = callgrind(dir);
    let starters;
    if (scenario === 'auth-limits') {
      starters = [
        ['bare', () => startBare(join(__dirname, '../bare/auth-limits.js'), { JWT_SIGNING_KEYS }, cg)],
        ['floor', () => startBare(join(__dirname, '../bare/auth-limits-nest.js'), { JWT_SIGNING_KEYS }, cg)],
        ['service', () => startService(plain, cg)],
      ];
    } else if (scenario === 'auth-limits-tracing') {
      sink = await otlpSink();
      const traced = (ratio) => ({ ...plain, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio });
      starters = [
        ['plain', () => startService(plain, cg)],
        ['tracing 10 %', () => startService(traced('0.1'), cg)],
        ['tracing 100 %', () => startService(traced('1'), cg)],
      ];
    } else throw new Error(`unknown scenario ${scenario}`);
    const sides = [];
    for (const [name, start] of starters.filter(([name]) => !only || only.includes(name))) {
      const p = await start();
      started.push(p);
      if (p.sandbox) hosts.set(p.proc.pid, '127.0.0.1'); // the service's HOST
      sides.push([name, p]);
    }
    // one tenant and token for every side (they share the database and the signing key), onboarded
    // through a counted service or, when none is counted, one started for it
    let svc = sides.find(([, p]) => p.sandbox)?.[1];
    if (!svc) started.push((svc = await startService(plain)));
    const o = await onboard(svc.url, db.url);
    const path = `/v1/banking/accounts/${o.tenantId}/limits`;
    const headers = { authorization: `Bearer ${o.token}` };
    const result = {};
    for (const [name, p] of sides) {
      result[name] = await measure(dir, p.proc.pid, { url: `${p.url}${path}`, headers });
      process.stderr.write(`instructions: ${name} ${JSON.stringify(result[name])}\n`);
    }
    const pooled = (name) => result[name].pooled;
    const line = { name: `${scenario} instructions/request`, requests: REQUESTS, sides: result, dumps: dir };
    // ratios only when every side was counted
    if (!only && scenario === 'auth-limits') Object.assign(line, { floorOverService: +(pooled('floor') / pooled('service')).toFixed(3), bareOverService: +(pooled('bare') / pooled('service')).toFixed(3), bareOverFloor: +(pooled('bare') / pooled('floor')).toFixed(3) });
    else if (!only) Object.assign(line, { cost: { '10 %': +(1 - pooled('plain') / pooled('tracing 10 %')).toFixed(3), '100 %': +(1 - pooled('plain') / pooled('tracing 100 %')).toFixed(3) } });
    process.stdout.write(`${JSON.stringify(line)}\n`);
  } finally {
    for (const p of started.reverse()) await p.stop();
    await sink?.stop();
    await db.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
