import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function benchFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? benchFiles(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

// The benchmarks load the built service (dist/src/…) at run time, outside typecheck: a module
// moved in src would break `npm run bench` without any other test noticing (it happened once).
describe('npm run bench loads only modules that exist', () => {
  it.each(benchFiles(join(ROOT, 'bench')).map((f) => [relative(ROOT, f)]))('%s', (file) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const built = [...source.matchAll(/dist\/(src\/[\w./-]+?)(?:\.js)?['"`]/g)].map((m) => m[1]);
    for (const path of built) expect([path, existsSync(join(ROOT, `${path.replace(/\.js$/, '')}.ts`))]).toEqual([path, true]);
  });
});

// `npm run bench` with no argument runs every top-level bench/*.js but lib.js as a scenario (shared setups live in bench/support/); the
// profiling tools live in bench/tools/ so they are not run (and counted as failed) among them.
describe('npm run bench runs scenarios only', () => {
  it.each(readdirSync(join(ROOT, 'bench')).filter((f) => f.endsWith('.js') && f !== 'lib.js'))('bench/%s reports a figure', (file) => {
    const source = readFileSync(join(ROOT, 'bench', file), 'utf8');
    expect(source).toMatch(/\bpair\(|name: /);
  });

  it('keeps the profiling tools out of the scenarios', () => {
    expect(readdirSync(join(ROOT, 'bench', 'tools')).sort()).toEqual([
      'cpu-per-request.js',
      'exit-on-sigterm.js',
      'instructions.js',
      'pool-runs.js',
      'profile-top.js',
      'profile.js',
      'span-cost.js',
      'start-ready.js',
    ]);
  });
});

// The gateway bench reads a ratio as the median of the ratios within each cycle of rounds, so a
// slow spell of the machine moves a ratio only where it fell on one side of a cycle and not the other.
describe('bench pairedRatio', () => {
  const { pairedRatio } = require(join(ROOT, 'bench', 'lib.js')) as {
    pairedRatio: (a: { cycles: number[] }, b: { cycles: number[] }) => number;
  };

  it('holds a ratio through a spell that slows both sides of a cycle', () => {
    const floor = { cycles: [20000, 10000, 20000, 20000, 20000] };
    const service = { cycles: [14000, 7000, 14000, 14000, 14000] };
    expect(pairedRatio(service, floor)).toBe(0.7);
  });

  it('drops the cycles where a spell fell on one side only, which the side medians do not', () => {
    const floor = { cycles: [20000, 20000, 11000, 12000, 20000] };
    const service = { cycles: [14000, 7000, 7700, 8400, 14000] };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2];
    expect(median(service.cycles) / median(floor.cycles)).toBeCloseTo(0.42, 2); // a spell on the floor's middle cycles, another on the service's
    expect(pairedRatio(service, floor)).toBe(0.7);
  });
});

// A cycle that always loads the sides in one order gives each side the same place in every cycle,
// and whatever a place costs (a drift across the cycle, what the round before left) never averages out.
describe('bench cycleOrder', () => {
  const { cycleOrder } = require(join(ROOT, 'bench', 'lib.js')) as { cycleOrder: (counts: number[], i: number) => number[][] };

  it('loads every process once a cycle, in order, then in reverse order the next cycle', () => {
    expect(cycleOrder([1, 2], 0)).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
    ]);
    expect(cycleOrder([1, 2], 1)).toEqual([
      [1, 1],
      [1, 0],
      [0, 0],
    ]);
    expect(cycleOrder([1, 2], 2)).toEqual(cycleOrder([1, 2], 0));
  });

  it('puts each side at each place equally often over two cycles', () => {
    const counts = [2, 2, 2, 2, 2];
    const places = counts.map(() => 0);
    for (const i of [0, 1]) cycleOrder(counts, i).forEach(([k], place) => (places[k] += place));
    expect(new Set(places).size).toBe(1);
  });
});

// The sandbox app keeps its tables in its own schema (`sandbox`), outside the service's search
// path: benchmarks that seed or count the simulated bank's rows in SQL must name the schema. An
// unqualified name failed every call of two floors and both engine benchmarks, silently for the
// floors (their 500s only showed as `non2xx`), after the sandbox moved into its own app.
describe("bench SQL names the sandbox's tables by their schema", () => {
  const sandboxTables = [...readFileSync(join(ROOT, 'sandbox', 'src', 'tables.ts'), 'utf8').matchAll(/^ {4}(sandbox_\w+): \{/gm)].map(
    (m) => m[1],
  );

  it('reads the sandbox table list', () => {
    expect(sandboxTables).toEqual(expect.arrayContaining(['sandbox_bank_recurrences', 'sandbox_bank_billings', 'sandbox_psp_locrec']));
  });

  it.each(benchFiles(join(ROOT, 'bench')).map((f) => [relative(ROOT, f)]))('%s', (file) => {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const unqualified = [...source.matchAll(/(?<![\w.])(sandbox_\w+)/g)].map((m) => m[1]).filter((t) => sandboxTables.includes(t));
    const unknown = [...source.matchAll(/\bsandbox\.(\w+)/g)].map((m) => m[1]).filter((t) => !sandboxTables.includes(t));
    expect({ unqualified, unknown }).toEqual({ unqualified: [], unknown: [] });
  });
});
