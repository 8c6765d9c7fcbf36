import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

describe('README.md', () => {
  it('is the assembly of docs/readme/ and docs/guide/ (whose walks and snippets the tests run)', () => {
    const out = execFileSync(process.execPath, [join(ROOT, 'scripts/readme.js'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toContain('README.md is up to date');
  });

  it('gives the two commands first, then configuration, then compose and Kubernetes', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const at = (s: string) => readme.indexOf(s);
    expect(at('npm ci && npm start')).toBeGreaterThan(0);
    expect(at('npm test')).toBeGreaterThan(at('npm ci && npm start'));
    expect(at('## Configuration')).toBeGreaterThan(at('npm test'));
    expect(at('## Running on docker compose and Kubernetes')).toBeGreaterThan(at('## Configuration'));
  });

  it('is a front door: at most 250 lines, linking every guide, ARCHITECTURE.md and the decisions', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const g of require('node:fs').readdirSync(join(ROOT, 'docs/guide'))) expect(readme).toContain(`(docs/guide/${g})`);
    expect(readme).toContain('(ARCHITECTURE.md)');
    expect(readme).toContain('(docs/decisions.md)');
  });

  it('leads with what a newcomer does first: run, credentials, a first call, the guides; benchmark detail lives in bench/README.md', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const at = (s: string) => readme.indexOf(s);
    const steps = [
      '## Quick start',
      'npm ci && npm start',
      'npm run -s tenant:create',
      'npm run -s credentials:setup',
      '/v1/oauth/token',
      '/limits',
    ];
    for (const s of steps) expect([s, at(s) > 0]).toEqual([s, true]);
    for (let i = 1; i < steps.length; i++) expect(at(steps[i])).toBeGreaterThan(at(steps[i - 1]));
    expect(at('## Quick start')).toBeLessThan(at('## Run and test'));
    expect(at('## Flows, step by step with curl')).toBeGreaterThan(0);
    const bench = readme.slice(at('## Benchmarks'));
    expect(bench.split('\n').length).toBeLessThan(15);
    expect(bench).toContain('(bench/README.md)');
    expect(readFileSync(join(ROOT, 'bench/README.md'), 'utf8')).toContain('| `auth-limits` |');
  });
});
