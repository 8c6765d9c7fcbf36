// CPU profile of one scenario's route through the compiled service, or its floor (not a benchmark).
// `node bench/tools/profile.js auth-limits|auth-limits-floor|auth-limits-tracing|recurrences [seconds]` starts dist/src/main.js under
// `--cpu-prof`, onboards a tenant the way the scenario does, loads the route with autocannon
// (50 connections), stops the service with SIGTERM so the profile is written, and prints the
// top frames by self time and by total time (bench/tools/profile-top.js). `auth-limits-tracing`
// is the limits route with tracing on (parentbased_traceidratio at PROFILE_SAMPLER_RATIO, default
// 1), exporting to a sink in this process, as the bench's tracing variants do. PROFILE_INTERVAL_US sets the
// sampling interval (Node's default is 1000 µs; 100 tells frames of a tenth of a µs per request apart).
// `auth-limits-floor` profiles the route's Nest floor (bench/bare/auth-limits-nest.js) under the same
// load, with a token the service issued, so the two profiles can be read side by side.
// The server is pinned as the bench pins it (alone on CPU 0, the load on CPU 1; BENCH_PIN=0 leaves
// it out). Unpinned, the scheduler shares the server's CPU with the load, and a profile charges
// that to the answer's write: 21 µs a request for the service against 14 for its floor, a gap the
// pinned rounds of the bench do not have (pinned: 13.6 against 14.7; request-cost.md, 2026-12-02, later).
const { mkdtempSync, readdirSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { focus, freshDatabase, pinLoad, saoPauloDay, startBare, startService } = require('../lib');
const { top } = require('./profile-top');

/** The service under `--cpu-prof` and its sandbox (the routes call the sandbox bank), as the bench starts them. */
const start = (dir, env) => startService(env, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...(process.env.PROFILE_INTERVAL_US ? [`--cpu-prof-interval=${process.env.PROFILE_INTERVAL_US}`] : [])] });

async function main() {
  const [scenario = 'auth-limits', seconds = '15'] = process.argv.slice(2);
  const dir = mkdtempSync(join(tmpdir(), `prof-${scenario}-`));
  // pinned as the bench pins (BENCH_PIN=0 leaves it out): this process, the load, on CPU 1 with
  // what it starts, and the server profiled alone on CPU 0 while it is loaded
  const pinned = pinLoad();
  const db = await freshDatabase('prof');
  let window;
  let svc;
  let sink = null;
  try {
    let opts;
    if (scenario === 'auth-limits-floor') {
      const { onboard, JWT_SIGNING_KEYS } = require('../auth-limits');
      const issuer = await startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, REDIS_URL: '' });
      const o = await onboard(issuer.url, db.url);
      await issuer.stop();
      // the floor writes its profile when it exits: on SIGTERM it exits (Node's default would kill it unwritten)
      const flags = [`--require=${join(__dirname, 'exit-on-sigterm.js')}`, '--cpu-prof', `--cpu-prof-dir=${dir}`];
      if (process.env.PROFILE_INTERVAL_US) flags.push(`--cpu-prof-interval=${process.env.PROFILE_INTERVAL_US}`);
      svc = await startBare(join(__dirname, '../bare/auth-limits-nest.js'), { JWT_SIGNING_KEYS, NODE_OPTIONS: flags.join(' ') });
      opts = { url: `${svc.url}/v1/banking/accounts/${o.tenantId}/limits`, headers: { authorization: `Bearer ${o.token}` } };
    } else if (scenario === 'auth-limits' || scenario === 'auth-limits-tracing') {
      const { onboard, otlpSink, JWT_SIGNING_KEYS } = require('../auth-limits');
      let tracing = {};
      if (scenario === 'auth-limits-tracing') {
        sink = await otlpSink();
        const ratio = process.env.PROFILE_SAMPLER_RATIO || '1';
        tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: ratio, OTEL_SERVICE_NAME: 'payments-bench' };
      }
      svc = await start(dir, { DATABASE_URL: db.url, JWT_SIGNING_KEYS, REDIS_URL: '', ...tracing });
      const o = await onboard(svc.url, db.url);
      opts = { url: `${svc.url}/v1/banking/accounts/${o.tenantId}/limits`, headers: { authorization: `Bearer ${o.token}` } };
    } else if (scenario === 'recurrences') {
      const { onboard } = require('../recurrences');
      svc = await start(dir, { DATABASE_URL: db.url, BILLING_ENGINE_INTERVAL_MS: '0', SANDBOX_BANK_TICK_MS: '0', REDIS_URL: '' });
      const o = await onboard(svc.url);
      const body = JSON.stringify({
        amount: 49.9, currency: 'BRL', periodicity: 'MONTHLY', firstDueDate: saoPauloDay(10), expirationDate: saoPauloDay(400),
        dayAdjustment: 'MOVE_FORWARD_NEXT_BUSINESS_DAY', payerName: 'Maria Souza', payerTaxId: '52998224725', description: 'Plano mensal',
      });
      opts = { url: `${svc.url}/v1/banking/pix/automatic/recurrences`, method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${o.token}` }, body };
    } else throw new Error(`unknown scenario ${scenario}`);
    focus(svc.proc.pid);
    const r = await autocannon({ connections: 50, pipelining: 1, duration: Number(seconds), ...opts });
    const loaded = Date.now();
    await svc.stop();
    svc = null;
    // the window of the load, in ms back from the profile's end (its first second, a warm-up, is left out)
    window = [Date.now() - loaded + Number(seconds) * 1000 - 1000, Date.now() - loaded];
    const non2xx = r.non2xx + r.errors + r.timeouts;
    console.log(JSON.stringify({ scenario, pinned, rps: Math.round(r.requests.average), requests: r.requests.total, p99: r.latency.p99, non2xx, window }));
    // a profile of refusals (401, 429, 502) is a profile of the error path, not of the route
    if (non2xx) throw new Error(`${non2xx} of ${r.requests.total} answers were not 2xx: the profile would not be of the route`);
  } finally {
    await svc?.stop();
    await sink?.stop();
    await db.drop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  console.log(`profile: ${join(dir, file)}`);
  top(join(dir, file), 40, '', window);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
