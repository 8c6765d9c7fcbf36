import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_SECTIONS } from '../../src/config.sections';
import { loadConfig } from '../../kernel/platform/config/config';

const ROOT = join(__dirname, '..', '..');

function run(args: string[]) {
  return spawnSync('npm', ['run', '-s', 'secrets:generate', '--', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
}

function parse(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** `npm run secrets:generate` fills every production secret, so a production boot accepts them. */
describe('npm run secrets:generate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-secrets-'));
  const file = join(dir, '.env');
  let first: Record<string, string>;

  beforeAll(() => {
    const r = run(['--out', file]);
    expect(r.status).toBe(0);
    first = parse(readFileSync(file, 'utf8'));
  }, 60_000);

  it('writes a .env (mode 0600) whose values a production configuration load accepts', () => {
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(() =>
      loadConfig(CONFIG_SECTIONS, {
        NODE_ENV: 'production',
        SANDBOX_URL: 'http://sandbox:3001',
        DATABASE_URL: 'postgres://u:p@db:5432/payments',
        ...first,
      }),
    ).not.toThrow();
    // No literal shell text: the README's old snippet wrote `$(openssl rand -base64 32)` verbatim.
    for (const v of Object.values(first)) expect(v).not.toMatch(/[$()\s]/);
  });

  it('fills every secret the compose file requires', () => {
    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    const required = [...compose.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]);
    expect(required.length).toBeGreaterThan(5);
    expect(Object.keys(first).sort()).toEqual([...new Set(required)].sort());
  });

  it('makes new values each run, and never overwrites a .env without --force', () => {
    const again = run(['--stdout']);
    expect(again.status).toBe(0);
    const second = parse(again.stdout);
    expect(Object.keys(second).sort()).toEqual(Object.keys(first).sort());
    for (const k of Object.keys(first)) expect(second[k]).not.toBe(first[k]);
    const refused = run(['--out', file]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect(parse(readFileSync(file, 'utf8'))).toEqual(first);
  }, 60_000);
});
