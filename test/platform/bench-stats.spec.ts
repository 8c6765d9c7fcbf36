const { interval, cycleRatios, verdict, sameBuild, seeded } = require('../../bench/support/stats') as {
  interval: (ratios: number[], level?: number) => [number, number];
  cycleRatios: (a: { cycles: number[] }, b: { cycles: number[] }) => number[];
  verdict: (i: [number, number], goal: number, atLeast: boolean) => 'met' | 'missed' | 'unsettled';
  sameBuild: (side: { rounds: number[] | number[][] }) => { ratio: number; interval: [number, number] } | null;
  seeded: (seed: number) => () => number;
};

// The bench prints each goal's figure with how far this run's cycles let it move, so a reader
// (and the closing note) can tell a figure that met its goal from one that landed there by chance.
describe('the bench says how sure a paired ratio is', () => {
  /** `n` per-cycle ratios around `centre`, each off by up to ±`noise` (a fixed draw). */
  const cycles = (n: number, centre: number, noise: number, seed = 1) => {
    const next = seeded(seed);
    return Array.from({ length: n }, () => centre * (1 + noise * (2 * next() - 1)));
  };

  it('gives a narrow interval around a steady ratio and a wide one around a noisy one', () => {
    const [sLow, sHigh] = interval(cycles(15, 0.85, 0.01));
    const [nLow, nHigh] = interval(cycles(15, 0.85, 0.25));
    expect(sLow).toBeGreaterThan(0.83);
    expect(sHigh).toBeLessThan(0.87);
    expect(nHigh - nLow).toBeGreaterThan(5 * (sHigh - sLow));
    expect(nLow).toBeLessThan(0.85);
    expect(nHigh).toBeGreaterThan(0.85);
  });

  it('narrows as cycles are added to the same noise', () => {
    const width = (n: number) => {
      const [low, high] = interval(cycles(n, 1, 0.2, 7));
      return high - low;
    };
    expect(width(60)).toBeLessThan(width(15));
  });

  it('holds the median of the cycles it was given, and gives the same interval for the same cycles', () => {
    const ratios = cycles(15, 0.97, 0.15, 3);
    const median = [...ratios].sort((x, y) => x - y)[7];
    const [low, high] = interval(ratios);
    expect(low).toBeLessThanOrEqual(+median.toFixed(3));
    expect(high).toBeGreaterThanOrEqual(+median.toFixed(3));
    expect(interval([...ratios])).toEqual([low, high]);
  });

  it('pairs two sides cycle by cycle', () => {
    expect(cycleRatios({ cycles: [10, 20, 30] }, { cycles: [20, 20, 60] })).toEqual([0.5, 1, 0.5]);
  });

  it('calls a goal met or missed only when the whole interval is on one side of it', () => {
    expect(verdict([0.81, 0.9], 0.8, true)).toBe('met');
    expect(verdict([0.7, 0.79], 0.8, true)).toBe('missed');
    expect(verdict([0.78, 0.86], 0.8, true)).toBe('unsettled');
    // a cost: at most the goal
    expect(verdict([-0.02, 0.04], 0.05, false)).toBe('met');
    expect(verdict([0.06, 0.12], 0.05, false)).toBe('missed');
    expect(verdict([0.01, 0.09], 0.05, false)).toBe('unsettled');
  });

  it("measures the instrument against itself: a side's second process over its first", () => {
    const aa = sameBuild({
      rounds: [
        [100, 200, 100, 100, 100],
        [95, 190, 95, 95, 95],
      ],
    });
    expect(aa!.ratio).toBe(0.95);
    expect(aa!.interval[0]).toBeLessThanOrEqual(0.95);
    expect(aa!.interval[1]).toBeGreaterThanOrEqual(0.95);
    expect(sameBuild({ rounds: [100, 110, 90] })).toBeNull(); // one process: nothing to pair
  });
});

// Several runs pooled: fresh processes each run, so the pool also averages the draw of processes.
describe('the bench pools the cycles of several auth-limits runs', () => {
  const { pool } = require('../../bench/tools/pool-runs') as { pool: (texts: string[]) => Record<string, any> };
  /** The saved stdout of one run: the lines pool-runs reads, around a log line and the summary. */
  const run = (floor: number[], service: number[], bare: number[], traced10: number[]) =>
    [
      '> node scripts/bench.js auth-limits',
      JSON.stringify({ name: 'auth.limits (Nest floor)', bare: { cycles: bare }, service: { cycles: floor } }),
      JSON.stringify({ name: 'auth.limits (in-process)', bare: { cycles: bare }, service: { cycles: service } }),
      JSON.stringify({ name: 'auth.limits (tracing 10 %)', bare: { cycles: service }, service: { cycles: traced10 } }),
      'summary',
    ].join('\n');

  it('gives each goal the median of all runs’ per-cycle ratios, a cost as 1 − ratio, with its verdict', () => {
    const a = run([100, 100, 100], [85, 86, 84], [200, 200, 200], [84, 85, 83]);
    const b = run([100, 100], [88, 90], [150, 150], [70, 72]);
    const p = pool([a, b]);
    expect(p.runs).toBe(2);
    expect(p.ofFloor).toMatchObject({ value: 0.86, cycles: 5, goal: '>= 0.8', verdict: 'met' });
    expect(p.ofBare.cycles).toBe(5);
    // tracing ÷ plain per cycle: 0.988, 0.988, 0.988, 0.795, 0.8 → median 0.988, cost 0.012
    expect(p['tracing 10 % cost'].value).toBe(0.012);
    const [low, high] = p['tracing 10 % cost'].interval;
    expect(low).toBeLessThanOrEqual(0.012);
    expect(high).toBeGreaterThan(0.05); // the slow run's cycles could have been the median
    expect(p['tracing 10 % cost'].verdict).toBe('unsettled');
    expect(p['tracing 100 % cost']).toBeUndefined(); // no such line in these runs
  });
});
