// How sure a paired ratio is. A ratio of the bench (`pairedRatio` in lib.js) is the median over
// cycles of the ratio of two sides within a cycle; on a shared 2-core VM one cycle's ratio moves
// by 10–25 %, so a median of 15 of them can land on either side of a goal a few points away.
// These helpers say how far it could have landed in this run (a bootstrap interval over the
// cycles) and whether the goal is beyond doubt (`verdict`), and they measure the instrument
// against itself (`sameBuild`: one side's second process over its first, the same code, so any
// distance from 1 is the instrument's, not the code's). In `support/`, so the runner does not
// take it for a scenario; a scenario requires it where it prints a figure with a goal
// (bench/README.md, "How sure a figure is").

/** A seeded generator (mulberry32): the same cycles give the same interval on every run. */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function median(xs) {
  const s = [...xs].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

const DRAWS = 4000;

/**
 * The central `level` share of the medians of `DRAWS` resamples (with replacement) of `ratios`,
 * the per-cycle ratios of one comparison: where the run's median could have landed had its cycles
 * fallen otherwise. It counts the round-to-round noise of the run, not the draw of processes
 * (a side's processes are the same in every cycle): `sameBuild` shows that share.
 */
function interval(ratios, level = 0.9) {
  if (ratios.length < 2) {
    // one cycle (a smoke run): no spread to draw from, the interval is the ratio itself
    const only = +ratios[0].toFixed(3);
    return [only, only];
  }
  const next = seeded(ratios.length * 7919);
  const medians = [];
  for (let d = 0; d < DRAWS; d++) {
    const draw = [];
    for (let i = 0; i < ratios.length; i++) draw.push(ratios[Math.floor(next() * ratios.length)]);
    medians.push(median(draw));
  }
  medians.sort((x, y) => x - y);
  const tail = (1 - level) / 2;
  const at = (q) => medians[Math.min(medians.length - 1, Math.max(0, Math.floor(q * medians.length)))];
  return [+at(tail).toFixed(3), +at(1 - tail).toFixed(3)];
}

/** Per-cycle ratios `a ÷ b` of two sides of one `alternate` run (their `cycles`). */
function cycleRatios(a, b) {
  return a.cycles.map((x, i) => x / b.cycles[i]);
}

/**
 * A figure's verdict against its goal: `met` when its whole interval is on the goal's side,
 * `missed` when the whole interval is on the other, `unsettled` when the interval holds the goal
 * (the run cannot tell the figure from the goal). `atLeast`: the figure must be ≥ goal (a ratio);
 * otherwise ≤ goal (a cost).
 */
function verdict([low, high], goal, atLeast) {
  if (atLeast) return low >= goal ? 'met' : high < goal ? 'missed' : 'unsettled';
  return high <= goal ? 'met' : low > goal ? 'missed' : 'unsettled';
}

/**
 * The instrument against itself: one side's processes are the same build, so its second
 * process ÷ its first, paired by cycle as every ratio is, would be 1 on a perfect instrument.
 * `ratio` is that median and `interval` its spread; a `ratio` of 0.94 says a 6 % difference
 * between two sides of this run could be the draw of processes alone. Null for a side of one process.
 */
function sameBuild(side) {
  const rounds = side.rounds;
  if (!Array.isArray(rounds) || !Array.isArray(rounds[0]) || rounds.length < 2) return null;
  const ratios = rounds[1].map((x, i) => x / rounds[0][i]);
  return { ratio: +median(ratios).toFixed(3), interval: interval(ratios) };
}

module.exports = { interval, cycleRatios, verdict, sameBuild, median, seeded };
