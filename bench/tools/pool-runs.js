// The auth-limits goals over several runs at once: `node bench/tools/pool-runs.js out1 out2 …`,
// each file the saved stdout of `npm run bench -- auth-limits` (its JSON lines). Every run's cycles
// are pooled, and each goal's figure is the median of the pooled per-cycle ratios with its 90 %
// interval and verdict (bench/support/stats.js). A run starts fresh processes, so pooling k runs
// also pools 2k processes a side, the draw that one long run (BENCH_ROUNDS=45) keeps fixed
// (bench/README.md, "How sure a figure is"). Prints one JSON line.
const { readFileSync } = require('node:fs');
const { interval, cycleRatios, verdict, median } = require('../support/stats');

const GOALS = [
  // [figure, numerator line and side, denominator line and side, goal, at least (a ratio) or at most (a cost)]
  ['ofFloor', ['auth.limits (in-process)', 'service'], ['auth.limits (Nest floor)', 'service'], 0.8, true],
  ['ofBare', ['auth.limits (in-process)', 'service'], ['auth.limits (in-process)', 'bare'], 0.5, true],
  ['tracing 10 % cost', ['auth.limits (tracing 10 %)', 'service'], ['auth.limits (in-process)', 'service'], 0.05, false],
  ['tracing 100 % cost', ['auth.limits (tracing 100 %)', 'service'], ['auth.limits (in-process)', 'service'], 0.15, false],
];

/** The result lines of one saved run, by name. */
function linesOf(text) {
  const out = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const j = JSON.parse(line);
      if (typeof j.name === 'string') out[j.name] = j;
    } catch {
      /* not a result line */
    }
  }
  return out;
}

/** The pooled figures of several runs' texts. */
function pool(texts) {
  const runs = texts.map(linesOf);
  const result = { runs: runs.length };
  for (const [figure, [numLine, numSide], [denLine, denSide], goal, atLeast] of GOALS) {
    const ratios = [];
    for (const run of runs) {
      const num = run[numLine]?.[numSide];
      const den = run[denLine]?.[denSide];
      if (num?.cycles && den?.cycles) ratios.push(...cycleRatios(num, den));
    }
    if (!ratios.length) continue;
    const [low, high] = interval(ratios);
    const m = median(ratios);
    const figureAndSpan = atLeast ? { value: +m.toFixed(3), interval: [low, high] } : { value: +(1 - m).toFixed(3), interval: [+(1 - high).toFixed(3), +(1 - low).toFixed(3)] };
    result[figure] = { ...figureAndSpan, cycles: ratios.length, goal: `${atLeast ? '>=' : '<='} ${goal}`, verdict: verdict(figureAndSpan.interval, goal, atLeast) };
  }
  return result;
}

if (require.main === module) {
  const files = process.argv.slice(2);
  if (!files.length) {
    console.error('usage: node bench/tools/pool-runs.js <saved auth-limits output>…');
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(pool(files.map((f) => readFileSync(f, 'utf8'))))}\n`);
}

module.exports = { pool };
