// Authenticated GET /v1/banking/accounts/{id}/limits (allow-list, HS256 JWT, revocation check,
// rate limit; in-process counters) through the whole service vs a bare node:http route doing the
// same check, in alternating rounds. With REDIS_URL set, also the service with Redis counters.
// Goals: in-process ≥ 0.8 of the Nest floor and ≥ 0.5 of bare.
//
// Equal work: the bare route and the Nest floor (bare/auth-limits-nest.js: an empty NestJS +
// Fastify app, one guard, the same JSON) do the gateway's work as the service does it
// (bare/gateway-check.js: the bearer by the service's own compiled codec and its store of verified
// tokens, the tenant's allow-list, revocation, one count in the tenant's window and the RateLimit-*
// headers, the account's cached Pix limits); the service's own machinery (request id, metrics,
// pipes, filters, hooks) is what the ratios measure.
// The in-process rounds run the three in turn, so one run tells how much of the gap is the
// framework's and how much is the service's. Rounds are short (2 s) and come in cycles, every
// process loaded once a cycle; each ratio is the median over cycles of the ratio within a cycle
// (`pairedRatio`), and the server loaded has CPU 0 to itself while this process, the load, has
// CPU 1 (`pinLoad`, BENCH_PIN=0 to leave it out): a slow spell of the VM then moves both sides of
// a cycle alike instead of whichever side it fell on. Each goal's figure is printed with its 90 %
// interval over the cycles and a verdict (met, missed, unsettled: the interval holds the goal), and
// the `same build` line gives each side's second process ÷ its first, the instrument measured
// against itself (support/stats.js); `node bench/tools/pool-runs.js` pools several saved runs.
//
// Tracing (BENCH_TRACING=0 leaves it out): two more services in the same rounds, with
// OpenTelemetry on, sampler parentbased_traceidratio at 0.1 and at 1.0, exporting OTLP/HTTP
// protobuf to a sink in this process that only drains it. `cost` = 1 - tracing ÷ plain (the
// in-process service of the same rounds). Goals: ≤ 0.05 at 10 %, ≤ 0.15 at 100 %.
const { constants, generateKeyPairSync, privateDecrypt, sign } = require('node:crypto');
const { createServer } = require('node:http');
const { join } = require('node:path');
const { Client } = require('pg');
const { ADMIN_KEY, freshDatabase, startService, startBare, alternate, compare, pair, pairedRatio, processes, pinLoad, knob, report } = require('./lib');
const { interval, cycleRatios, verdict, sameBuild } = require('./support/stats');

const JWT_SIGNING_KEYS = 'bench:bench-signing-secret-0123456789abcdef0123';

async function post(url, body, headers = {}) {
  const res = await fetch(url, { method: 'POST', headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** The real onboarding flow over HTTP; the tenant's limit is then raised out of the way. */
async function onboard(base, dbUrl) {
  const t = await post(`${base}/admin/tenants`, { name: 'Bench', allowedCidrs: ['127.0.0.1/32', '::1/128'] }, { 'X-Admin-Key': ADMIN_KEY });
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const keys = `${base}/v1/tenants/${t.tenantId}/keys`;
  const k = await post(keys, { publicKey });
  const signature = sign('sha256', Buffer.from(k.challenge), { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }).toString('base64');
  await post(`${keys}/${k.keyId}/verify`, { challenge: k.challenge, signature });
  const c = await post(`${keys}/${k.keyId}/credentials`);
  const dec = (b) => privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(b, 'base64')).toString();
  const tok = await post(`${base}/v1/oauth/token`, { grant_type: 'client_credentials', client_id: dec(c.encryptedClientId), client_secret: dec(c.encryptedClientSecret) });
  const pg = new Client({ connectionString: dbUrl });
  await pg.connect();
  await pg.query('UPDATE tenants SET rate_limit_per_minute = 1000000000 WHERE id = $1', [t.tenantId]);
  await pg.end();
  await new Promise((r) => setTimeout(r, 2100)); // the tenant cache TTL
  return { tenantId: t.tenantId, token: tok.access_token };
}

/** An OTLP/HTTP endpoint that accepts and drops every export (the collector's cost is not ours); `countSpans` counts what arrived. */
async function otlpSink({ countSpans = false } = {}) {
  let exports = 0;
  let spans = 0;
  const server = createServer((req, res) => {
    exports++;
    const chunks = [];
    // counting reads every body in this process, beside the load: only tools that ask for it pay
    if (countSpans) req.on('data', (c) => chunks.push(c));
    else req.resume();
    req.on('end', () => {
      if (countSpans) spans += spansIn(Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, exports: () => exports, spans: () => spans, stop: () => new Promise((r) => server.close(r)) };
}

/** Spans in an OTLP protobuf export (resource_spans 1 → scope_spans 2 → spans 2), so a run can tell exported from dropped. */
function spansIn(buf, depth = 0) {
  let pos = 0;
  let n = 0;
  const varint = () => {
    let v = 0;
    for (let m = 1; ; m *= 128) {
      const b = buf[pos++];
      v += (b & 0x7f) * m;
      if (b < 0x80) return v;
    }
  };
  while (pos < buf.length) {
    const tag = varint();
    const wire = tag & 7;
    if (wire === 0) varint();
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else {
      const len = varint();
      const field = tag >>> 3;
      if (depth === 0 && field === 1) n += spansIn(buf.subarray(pos, pos + len), 1);
      else if (depth === 1 && field === 2) n += spansIn(buf.subarray(pos, pos + len), 2);
      else if (depth === 2 && field === 2) n++;
      pos += len;
    }
  }
  return n;
}

/**
 * Cycles of rounds and a round's length (BENCH_ROUNDS, BENCH_DURATION override them): 16 cycles of
 * 2 s rounds, every process loaded once a cycle, so a cycle lasts ~20 s with 2 processes a side;
 * an even count, so as many cycles run the sides in reverse order as in order (`alternate`).
 */
const CYCLES = knob('BENCH_ROUNDS', 16);
const ROUND_SECONDS = knob('BENCH_DURATION', 2);

/** Tracing variants: the sampler ratio and the cost goal (1 - tracing ÷ plain). */
const TRACING = [
  ['10 %', '0.1', 0.05],
  ['100 %', '1', 0.15],
];

async function main() {
  // this process (the load, the OTLP sink) and the idle servers on CPU 1, the loaded one on CPU 0
  const pinned = pinLoad();
  const db = await freshDatabase();
  const sink = process.env.BENCH_TRACING === '0' ? null : await otlpSink();
  const started = [];
  const start = async (p) => (started.push(await p), started[started.length - 1]);
  // tracing off unless a variant turns it on, whatever the shell's OTEL_* say
  const service = (env) => start(startService({ DATABASE_URL: db.url, JWT_SIGNING_KEYS, OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', ...env }));
  try {
    // each side as several processes (BENCH_PROCESSES), its median over all their rounds
    const bare = await processes(() => start(startBare(join(__dirname, 'bare/auth-limits.js'), { JWT_SIGNING_KEYS })));
    const floor = await processes(() => start(startBare(join(__dirname, 'bare/auth-limits-nest.js'), { JWT_SIGNING_KEYS })));
    const svc = await processes(() => service({ REDIS_URL: '' }));
    const traced = [];
    for (const [label, ratio, goal] of sink ? TRACING : []) {
      const s = await processes(() =>
        service({
          REDIS_URL: '',
          OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: ratio,
          OTEL_SERVICE_NAME: 'payments-bench',
        }),
      );
      traced.push({ label, ratio, goal, s });
    }
    // one tenant and token for every service: they share the database and the signing key
    const o = await onboard(svc[0].url, db.url);
    const path = `/v1/banking/accounts/${o.tenantId}/limits`;
    const headers = { authorization: `Bearer ${o.token}` };
    const at = (servers) => servers.map((server) => ({ url: `${server.url}${path}`, headers, pid: server.proc.pid }));
    // short rounds, many cycles: each ratio is the median of the ratios within a cycle (pairedRatio)
    const [b, f, s, ...t] = await alternate([at(bare), at(floor), at(svc), ...traced.map((x) => at(x.s))], CYCLES, ROUND_SECONDS);
    // each figure with its 90 % interval over the cycles and its verdict against the goal
    // (support/stats.js): `unsettled` says this run cannot tell the figure from its goal
    const within = (a, c) => interval(cycleRatios(a, c));
    pair('auth.limits (Nest floor)', b, f, { goal: 'reference: an empty NestJS + Fastify app with the same check', ratio: pairedRatio(f, b), interval: within(f, b), pinned });
    const [ofBare, ofFloor] = [within(s, b), within(s, f)];
    pair('auth.limits (in-process)', b, s, {
      goal: 'ofFloor >= 0.8 and ratio >= 0.5',
      ratio: pairedRatio(s, b),
      interval: ofBare,
      ofFloor: pairedRatio(s, f),
      ofFloorInterval: ofFloor,
      verdict: { ofFloor: verdict(ofFloor, 0.8, true), ratio: verdict(ofBare, 0.5, true) },
    });
    traced.forEach((x, i) => {
      const cost = +(1 - pairedRatio(t[i], s)).toFixed(3);
      const [low, high] = within(t[i], s);
      const costInterval = [+(1 - high).toFixed(3), +(1 - low).toFixed(3)];
      // `bare` here is the plain service of the same rounds, so `ratio` is tracing ÷ plain
      pair(`auth.limits (tracing ${x.label})`, s, t[i], {
        sampler: `parentbased_traceidratio ${x.ratio}`,
        ratio: pairedRatio(t[i], s),
        cost,
        costInterval,
        goal: `cost <= ${x.goal}`,
        met: cost <= x.goal,
        verdict: verdict(costInterval, x.goal, false),
        ofBare: pairedRatio(t[i], b),
      });
    });
    // the instrument against itself: each side's second process ÷ its first (the same build)
    const sides = [['bare', b], ['floor', f], ['service', s], ...traced.map((x, i) => [`tracing ${x.label}`, t[i]])];
    const aa = Object.fromEntries(sides.map(([label, side]) => [label, sameBuild(side)]).filter(([, v]) => v));
    if (Object.keys(aa).length) report({ name: 'auth.limits (same build)', goal: 'reference: process 2 ÷ process 1 of each side, 1 on a perfect instrument', sides: aa });
    if (process.env.REDIS_URL) {
      const redis = await service({ REDIS_URL: process.env.REDIS_URL });
      const r = await compare(at(bare)[0], at([redis])[0]);
      pair('auth.limits (redis)', r.bare, r.service, { goal: 'reported' });
    }
    if (sink) process.stderr.write(`auth-limits bench: ${sink.exports()} OTLP exports received\n`);
  } finally {
    for (const p of started.reverse()) await p.stop();
    await sink?.stop();
    await db.drop();
  }
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { onboard, otlpSink, spansIn, JWT_SIGNING_KEYS };
