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
});
