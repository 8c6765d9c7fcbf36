// Shared helpers for the benchmark scenarios (plain CommonJS, run against the built app).
const { execFileSync, spawn } = require('node:child_process');
const { constants, generateKeyPairSync, privateDecrypt, randomBytes, sign } = require('node:crypto');
const { mkdtempSync } = require('node:fs');
const { createServer } = require('node:net');
const { availableParallelism, tmpdir } = require('node:os');
const { join } = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const autocannon = require('autocannon');
const { Client } = require('pg');
const { waitHealthReady } = require('../test/support/health-ready');
const { cycleRatios, median } = require('./support/stats');

const ROOT = join(__dirname, '..');
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';

function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => resolve(p));
    });
  });
}

/** The date in São Paulo (the service's business day), `offsetDays` from today, as YYYY-MM-DD. */
function saoPauloDay(offsetDays = 0) {
  const d = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  return new Date(Date.parse(`${d}T00:00:00Z`) + offsetDays * 86400000).toISOString().slice(0, 10);
}

function dbUrl(name) {
  const u = new URL(process.env.DATABASE_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function freshDatabase(prefix = 'bench') {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const c = new Client({ connectionString: dbUrl('postgres') });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
  return {
    url: dbUrl(name),
    async drop() {
      const d = new Client({ connectionString: dbUrl('postgres') });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await d.end();
    },
  };
}

/** Until `url` answers GET /health/ready with 200 (the tests' own wait, shared with them). */
function waitReady(url, ms = 60000) {
  return waitHealthReady(url, { timeoutMs: ms });
}

/**
 * The compiled service in its own process, production-like (warn logs), on a fresh port, with the
 * sandbox app beside it in its own process (as `npm start` runs them), sharing DATA_DIR;
 * `nodeArgs` go to the service's process (e.g. `--cpu-prof`); `wrap` is a command line the service's
 * Node runs under (e.g. valgrind's), with `readyMs` to wait for a slower start.
 */
async function startService(env = {}, { nodeArgs = [], wrap = [], readyMs = 60000 } = {}) {
  const [port, sandboxPort, pspPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-'));
  const common = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ADMIN_API_KEY: ADMIN_KEY, DATA_DIR: dataDir };
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = spawn(process.execPath, [join(ROOT, 'dist/sandbox/src/main.js')], {
    cwd: ROOT,
    env: { ...common, SANDBOX_PORT: String(sandboxPort), SANDBOX_PSP_PORT: String(pspPort), SANDBOX_SERVICE_URL: `http://127.0.0.1:${port}`, SANDBOX_EMBEDDED_PG_PORT: String(await freePort()), ...env },
    stdio: ['ignore', 2, 2],
  });
  const [command, ...args] = [...wrap, process.execPath, ...nodeArgs, join(ROOT, 'dist/src/main.js')];
  const proc = spawn(command, args, {
    cwd: ROOT,
    env: { ...common, PORT: String(port), SANDBOX_URL: sandboxUrl, SANDBOX_PUBLIC_URL: sandboxUrl, SANDBOX_PSP_URL: `https://127.0.0.1:${pspPort}`, ...env },
    stdio: ['ignore', 2, 2], // the service's logs go to stderr; stdout carries only result lines
  });
  const url = `http://127.0.0.1:${port}`;
  await Promise.all([waitReady(url, readyMs), waitReady(sandboxUrl)]);
  const stopOne = (p) => new Promise((r) => { if (p.exitCode !== null) return r(); p.once('exit', r); p.kill('SIGTERM'); });
  return { url, sandboxUrl, port, proc, sandbox, stop: () => Promise.all([stopOne(proc), stopOne(sandbox)]) };
}

/** A plain Node server script in its own process (the bare baseline); `wrap` and `readyMs` as for `startService`. */
async function startBare(script, env = {}, { wrap = [], readyMs = 15000 } = {}) {
  const port = await freePort();
  const [command, ...args] = [...wrap, process.execPath, script];
  const proc = spawn(command, args, { env: { ...process.env, PORT: String(port), ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + readyMs;
  for (;;) {
    try {
      await fetch(`${url}/__ready`);
      break;
    } catch {
      if (Date.now() > until) throw new Error('bare server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, proc, stop: () => new Promise((r) => { proc.once('exit', r); proc.kill('SIGTERM'); }) };
}

/**
 * Smoke (`BENCH_SMOKE=1`, what `npm run bench -- --smoke` sets): every scenario runs its whole path
 * (both sides start and answer, the same-JSON checks, every JSON line) in the least time that
 * still runs it, so CI can run them all and a scenario that stops working fails there rather
 * than at the next measurement. The figures of so short a run say nothing: ratios are printed,
 * goals are not judged (`report()`); a failed answer, an error or a different JSON still fails.
 * Each knob's smoke value is here, the one place; a knob set in the environment wins over both.
 */
const SMOKE = ['1', 'true'].includes(process.env.BENCH_SMOKE ?? '');
const SMOKE_KNOBS = {
  BENCH_DURATION: 1, // seconds a measured round lasts
  BENCH_WARMUP: 1, // seconds of warm-up per server
  BENCH_ROUNDS: 1, // rounds (cycles) per side
  BENCH_PROCESSES: 2, // processes per side (auth-limits): as measured, since its same-build line needs two
  BENCH_ENGINE_RECURRENCES: 1000, // engine, engine-pix-api: due recurrences (100 000)
  BENCH_EVENTS: 1000, // outbox: events delivered (20 000)
  BENCH_REFUND_PAYMENTS: 5, // card-refunds-adyen: sales the refunds spread over (100)
};

/** A number knob: the environment's `name` when set, else its smoke value in a smoke run, else `normal`. */
function knob(name, normal) {
  const set = process.env[name];
  if (set !== undefined && set !== '') return Number(set);
  if (SMOKE && !(name in SMOKE_KNOBS)) throw new Error(`bench knob ${name} has no smoke value in bench/lib.js SMOKE_KNOBS`);
  return SMOKE ? SMOKE_KNOBS[name] : normal;
}

/**
 * Prints one result line (a JSON object with `name`). In a smoke run it says so (`smoke: true`)
 * and a goal's judgement (`met`, `verdict`) becomes `not judged (smoke)`: a 1 s round can land on
 * either side of any goal.
 */
function report(line) {
  const out = SMOKE ? { ...line, smoke: true } : line;
  if (SMOKE) for (const k of ['met', 'verdict']) if (k in out) out[k] = 'not judged (smoke)';
  process.stdout.write(`${JSON.stringify(out)}\n`);
  return out;
}

const DURATION = knob('BENCH_DURATION', 10);
const WARMUP = knob('BENCH_WARMUP', 3);

/** autocannon: 50 connections, a warm-up, then the measured run. */
async function load(opts) {
  const base = { connections: 50, pipelining: 1, ...opts };
  await autocannon({ ...base, duration: WARMUP });
  const r = await autocannon({ ...base, duration: DURATION });
  const non2xx = r.non2xx + r.errors + r.timeouts;
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, non2xx };
}

const ROUNDS = knob('BENCH_ROUNDS', 3);

/**
 * The bare baseline and the service measured in alternating rounds (bare, service, bare, …),
 * each warmed up once, and each side's median round reported. A machine whose speed drifts
 * during the run (a shared VM does) then shifts both sides alike instead of whichever ran second.
 */
async function compare(bareOpts, serviceOpts, rounds = ROUNDS) {
  const [bare, service] = await alternate([bareOpts, serviceOpts], rounds);
  return { bare, service };
}

/**
 * The rounds of cycle `i` as [side, process] pairs, for sides of `counts[k]` processes: every
 * process once, in the given order, and in the reverse order every other cycle (ABBA), so
 * whatever a round owes to its place in the cycle (a drift across the cycle, what the round before
 * left behind) falls on every side and process alike over two cycles.
 */
function cycleOrder(counts, i) {
  const order = counts.flatMap((n, k) => Array.from({ length: n }, (_, j) => [k, j]));
  return i % 2 === 0 ? order : order.reverse();
}

/**
 * `compare` for any number of servers: warm each up, then rounds of each in turn (the order
 * reversed every other cycle); medians. A side may be an array of opts, one per process running
 * the same build (see `processes`): its rounds on all of them are pooled, its median taken over the
 * pool, and `rounds` lists them process by process.
 * An opts' `pid` is the server's process, given CPU 0 for its rounds when the scenario pinned (`pinLoad`).
 */
async function alternate(optsList, rounds = ROUNDS, duration = DURATION) {
  const run = ({ pid, ...opts }, d) => (focus(pid), autocannon({ connections: 50, pipelining: 1, ...opts, duration: d }));
  const sides = optsList.map((o) => (Array.isArray(o) ? o : [o]));
  for (const side of sides) for (const opts of side) await run(opts, WARMUP);
  const seen = sides.map((side) => side.map(() => []));
  for (let i = 0; i < rounds; i++) {
    for (const [k, j] of cycleOrder(sides.map((side) => side.length), i)) seen[k][j].push(summary(await run(sides[k][j], duration)));
  }
  const medianRound = (xs) => [...xs].sort((x, y) => x.rps - y.rps)[Math.floor(xs.length / 2)];
  return seen.map((perProcess, k) => {
    const rps = perProcess.map((xs) => xs.map((x) => x.rps));
    // a cycle's figure for the side: the mean of its processes' rounds in that cycle
    const cycles = rps[0].map((_, i) => Math.round(rps.reduce((sum, xs) => sum + xs[i], 0) / rps.length));
    return { ...medianRound(perProcess.flat()), rounds: Array.isArray(optsList[k]) ? rps : rps[0], cycles };
  });
}

/**
 * `a ÷ b` as the median over cycles of the ratio within each cycle (sides from one `alternate`
 * run). A slow spell of the machine that lasts a few rounds moves every side of the cycles it
 * covers alike, so the ratio of a cycle holds, and the median drops the cycles it cut across.
 */
function pairedRatio(a, b) {
  return +median(cycleRatios(a, b)).toFixed(3);
}

/**
 * Processes per side where a ratio compares processes (`BENCH_PROCESSES`, default 2): two Node
 * processes of the same build under the same load differ by 7-15 % in CPU per request, steadily
 * for their whole life (docs/decisions/request-cost.md), so one process per side lets that draw
 * decide a ratio as much as the code does.
 */
const PROCESSES = Math.max(1, knob('BENCH_PROCESSES', 2));

/** `n` processes of one side, started one after the other by `start()`. */
async function processes(start, n = PROCESSES) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await start());
  return out;
}

/**
 * CPU pinning (`BENCH_PIN`, default on where the machine has 2+ CPUs and `taskset`), for scenarios
 * that ask for it (`pinLoad()`): the scenario's process (autocannon, the load) and every server it
 * starts run on CPU 1, and each round moves the server it loads, every thread of it, to CPU 0
 * alone (`alternate()` does it for opts that carry the server's `pid`). Unpinned on a 2-vCPU VM,
 * the scheduler moved server and load between the CPUs: the same service answered 9 000–10 000
 * req/s unpinned and 14 000–16 000 pinned. The idle servers' periodic jobs (six services in
 * `auth-limits`) run beside the load, not beside the server measured. Pinning does not remove the
 * VM's slow spells; `pairedRatio` is for those (docs/decisions/request-cost.md, "2026-11-27, night").
 */
/** Whether to pin, decided once and only when a scenario asks (`pinLoad`): the others never run `taskset`. */
const wantPin = () => process.env.BENCH_PIN !== '0' && availableParallelism() >= 2 && hasTaskset();

function hasTaskset() {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const cpuOf = (pid, cpu) => execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });

let pinned = false;
/** Puts this process on CPU 1 (its children inherit it); false when pinning is off. */
function pinLoad() {
  pinned = wantPin();
  if (pinned) cpuOf(process.pid, 1);
  return pinned;
}

let focused = null;
/** After `pinLoad()`, the server about to be loaded gets CPU 0 to itself; the one before goes back to CPU 1. */
function focus(pid) {
  if (!pinned || pid === undefined || pid === focused) return;
  if (focused !== null) cpuOf(focused, 1);
  cpuOf(pid, 0);
  focused = pid;
}

function summary(r) {
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, non2xx: r.non2xx + r.errors + r.timeouts };
}

/**
 * Prints one figure. A side that failed answers (non-2xx, errors, timeouts) did not do the work
 * the figure compares, so the line says `invalid` and the scenario exits non-zero: a floor whose
 * every call failed once made the service look four times faster than it, unnoticed.
 */
function pair(name, bare, service, extra = {}) {
  const line = { name, bare, service, ratio: +(service.rps / bare.rps).toFixed(3), p99Ratio: +(service.p99 / Math.max(bare.p99, 1)).toFixed(2), ...extra };
  const failed = [['bare', bare], ['service', service]].filter(([, side]) => side.non2xx > 0);
  if (failed.length) {
    line.invalid = failed.map(([label, side]) => `${label}: ${side.non2xx} failed answers`).join('; ');
    process.exitCode = 1;
  }
  return report(line);
}

/** One JSON call of the service, failing on any status ≥ 300. */
async function callJson(url, method, path, payload, headers = {}) {
  const json = payload === undefined ? {} : { 'content-type': 'application/json' };
  const r = await fetch(`${url}${path}`, { method, headers: { ...json, ...headers }, body: payload === undefined ? undefined : JSON.stringify(payload) });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** The tenant flow of the spec: key upload, PSS-signed challenge, OAEP credentials, token. */
async function onboard(url) {
  const tenant = await callJson(url, 'POST', '/admin/tenants', { name: 'Bench', allowedCidrs: ['127.0.0.1/32'] }, { 'X-Admin-Key': ADMIN_KEY });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const up = await callJson(url, 'POST', `/v1/tenants/${tenant.tenantId}/keys`, { publicKey });
  const signature = sign('sha256', Buffer.from(up.challenge), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString('base64');
  await callJson(url, 'POST', `/v1/tenants/${tenant.tenantId}/keys/${up.keyId}/verify`, { challenge: up.challenge, signature });
  const creds = await callJson(url, 'POST', `/v1/tenants/${tenant.tenantId}/keys/${up.keyId}/credentials`);
  const dec = (b64) => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(b64, 'base64')).toString('utf8');
  const tok = await callJson(url, 'POST', '/v1/oauth/token', { grant_type: 'client_credentials', client_id: dec(creds.encryptedClientId), client_secret: dec(creds.encryptedClientSecret) });
  return { tenantId: tenant.tenantId, token: tok.access_token };
}

/** Where two JSON values first differ, as `path: service … floor …` (for a same-JSON check's error). */
function firstDifference(a, b, path = '$') {
  if (isDeepStrictEqual(a, b)) return null;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = firstDifference(a[k], b[k], Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`);
      if (d) return d;
    }
  }
  const show = (v) => (v === undefined ? 'absent' : JSON.stringify(v).slice(0, 200));
  return `${path}: service ${show(a)}, floor ${show(b)}`;
}

module.exports = { SMOKE, SMOKE_KNOBS, knob, report, firstDifference, onboard, callJson, ROOT, ADMIN_KEY, saoPauloDay, freePort, freshDatabase, startService, startBare, load, compare, alternate, cycleOrder, pairedRatio, processes, pair, waitReady, DURATION, WARMUP, ROUNDS, PROCESSES, pinLoad, focus };
