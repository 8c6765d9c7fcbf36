#!/usr/bin/env node
// `npm run bench [--smoke] [scenario…]`: builds, makes sure a PostgreSQL is reachable (DATABASE_URL or an
// embedded one), runs each bench/<scenario>.js (default: all) one after the other, each
// printing JSON lines, then a summary. Figures are ratios against the bare baseline of the
// same run. `--smoke` (or BENCH_SMOKE=1) runs every scenario's whole path briefly, goals not
// judged, for CI (bench/lib.js, SMOKE_KNOBS); a scenario that fails still fails the run.
const { spawn, execFileSync } = require('node:child_process');
const { mkdtempSync, readdirSync, rmSync, chmodSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..');

/** One scenario's run to its end, its stdout kept, while this event loop keeps turning. */
function runScenario(name, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bench', `${name}.js`)], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.on('error', () => resolve({ status: 1, stdout }));
    child.on('close', (code) => resolve({ status: code ?? 1, stdout }));
  });
}

/** A figure's 90 % interval over its cycles, where the scenario gives one (bench/support/stats.js). */
const span = (i) => (Array.isArray(i) ? ` [${i[0]}–${i[1]}]` : '');
/** A scenario's verdicts against its goals: met, missed, or unsettled (the interval holds the goal). */
const verdicts = (v) => (v === undefined ? '' : `   ${typeof v === 'string' ? v : Object.entries(v).map(([k, x]) => `${k} ${x}`).join(', ')}`);

async function main() {
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: root, stdio: 'inherit' });
  const all = readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.js') && f !== 'lib.js').map((f) => f.replace(/\.js$/, ''));
  const args = process.argv.slice(2);
  const names = args.filter((a) => !a.startsWith('--'));
  const unknown = args.filter((a) => a.startsWith('--') && a !== '--smoke').concat(names.filter((n) => !all.includes(n)));
  if (unknown.length) throw new Error(`unknown scenario or option: ${unknown.join(' ')} (scenarios: ${all.join(' ')}; option: --smoke)`);
  const wanted = names.length ? names : all;
  const env = { ...process.env };
  if (args.includes('--smoke')) env.BENCH_SMOKE = '1';
  const smoke = ['1', 'true'].includes(env.BENCH_SMOKE ?? '');
  const t0 = Date.now();
  let embedded = null;
  let dir = null;
  if (!env.DATABASE_URL) {
    const { EmbeddedPostgres } = require(join(root, 'dist/kernel/platform/database/embedded-postgres.js'));
    dir = mkdtempSync(join(tmpdir(), 'pp-bench-pg-'));
    chmodSync(dir, 0o755);
    embedded = new EmbeddedPostgres(dir, Number(env.BENCH_EMBEDDED_PG_PORT || 54349), 'bench', () => undefined, 'postgres');
    env.DATABASE_URL = await embedded.start();
  }
  const lines = [];
  const ran = [];
  let failed = 0;
  for (const name of wanted) {
    process.stderr.write(`\n== bench ${name}${smoke ? ' (smoke)' : ''}\n`);
    const started = Date.now();
    // an asynchronous child, never spawnSync: this process reads the embedded PostgreSQL's log on its
    // event loop, and a blocked loop stops the server in write() (docs/decisions.md, the npm test hang)
    const r = await runScenario(name, env);
    ran.push({ name, status: r.status, seconds: Math.round((Date.now() - started) / 1000) });
    process.stdout.write(r.stdout);
    if (r.status !== 0) {
      failed++;
      process.stderr.write(`bench ${name} failed (exit ${r.status})\n`);
    }
    for (const l of r.stdout.split('\n')) {
      try {
        const j = JSON.parse(l);
        if (typeof j.name === 'string') lines.push(j);
      } catch {
        /* not a result line */
      }
    }
  }
  process.stdout.write(`\nsummary${smoke ? ' (smoke: figures of 1 s rounds and small counts, goals not judged)' : ''}\n`);
  for (const l of lines) {
    if (l.bare && l.service) {
      process.stdout.write(`  ${l.name.padEnd(28)} service ${String(l.service.rps).padStart(7)} req/s (p50 ${l.service.p50} ms, p99 ${l.service.p99} ms)   bare ${String(l.bare.rps).padStart(7)} req/s (p50 ${l.bare.p50} ms, p99 ${l.bare.p99} ms)   ratio ${l.ratio}${span(l.interval)}${l.ofFloor === undefined ? '' : ` (${l.ofFloor}${span(l.ofFloorInterval)} of its floor)`}${l.cost === undefined ? '' : ` (cost ${l.cost}${span(l.costInterval)}; "bare" is the plain service)`}${verdicts(l.verdict)}${l.invalid ? `   INVALID (${l.invalid})` : ''}\n`);
    } else {
      process.stdout.write(`  ${l.name.padEnd(28)} ${JSON.stringify({ ...l, name: undefined })}\n`);
    }
  }
  for (const r of ran) process.stdout.write(`  ${r.name.padEnd(28)} ${r.status === 0 ? 'ok' : `FAILED (exit ${r.status})`} in ${r.seconds} s\n`);
  process.stdout.write(`  ${wanted.length} scenario(s), ${failed} failed, in ${Math.round((Date.now() - t0) / 1000)} s (the build excluded)\n`);
  if (embedded) {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
