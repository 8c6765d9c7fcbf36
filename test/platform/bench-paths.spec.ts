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
      'instructions.js',
      'profile-top.js',
      'profile.js',
      'start-ready.js',
    ]);
  });
});
