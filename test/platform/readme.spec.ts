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
});
