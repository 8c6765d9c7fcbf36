import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_SECTIONS } from '../../src/config.sections';
import { execFileSync } from 'node:child_process';
import { ConfigValidationError, loadConfig } from '../../kernel/platform/config/config';
import { configProblems, devConfigProblems } from '../support/config-problems';
import { PlatformConfig } from '../../kernel/platform/config/platform.config';

const problems = configProblems;

describe('configuration validated at boot', () => {
  it('lists every bad variable at once, each with a clear message', () => {
    const p = problems({
      NODE_ENV: 'development',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')),
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      LOG_LEVEL: 'loud',
      TRUST_PROXY: 'not-an-ip',
    });
    expect(p).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT must be an integer, got "eighty"/),
        expect.stringMatching(/^DATABASE_URL must use postgres: or postgresql:/),
        expect.stringMatching(/^LOG_LEVEL must be one of/),
        expect.stringMatching(/^TRUST_PROXY entry "not-an-ip"/),
      ]),
    );
    const short = problems({
      NODE_ENV: 'development',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')),
      WEBHOOK_SECRETS_KEYS_PREVIOUS: 'a-real-old-key-of-forty-characters-000000,short',
    });
    expect(short).toEqual([expect.stringMatching(/^WEBHOOK_SECRETS_KEYS_PREVIOUS: every key must be at least 32 characters/)]);
    expect(short.join(' ')).not.toContain('a-real-old-key');
  });

  it('in production refuses missing and placeholder secrets', () => {
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db' })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^ADMIN_API_KEY is required in production/)]),
    );
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db', ADMIN_API_KEY: 'changeme' })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^ADMIN_API_KEY looks like a placeholder/)]),
    );
  });

  it('in development generates the secrets once and keeps them under the data directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const a = loadConfig(CONFIG_SECTIONS, { NODE_ENV: 'development', DATA_DIR: dir }).get(PlatformConfig).adminApiKey;
    const b = loadConfig(CONFIG_SECTIONS, { NODE_ENV: 'development', DATA_DIR: dir }).get(PlatformConfig).adminApiKey;
    expect(a).toHaveLength(43);
    expect(b).toBe(a);
    const file = join(dir, 'secrets.json');
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).ADMIN_API_KEY).toBe(a);
  });

  it('production refuses to start without DATABASE_URL, naming it; development keeps the embedded default', () => {
    const production = problems({ NODE_ENV: 'production' });
    expect(production).toEqual(
      expect.arrayContaining([expect.stringMatching(/^DATABASE_URL is required when NODE_ENV=production: set DATABASE_URL/)]),
    );
    expect(problems({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db' }).join('\n')).not.toMatch(/DATABASE_URL/);
    expect(devConfigProblems({}).join('\n')).not.toMatch(/DATABASE_URL/);
  });

  it('the refusal of missing production secrets says how to make them: npm run secrets:generate', () => {
    let message = '';
    try {
      loadConfig(CONFIG_SECTIONS, { NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db', SANDBOX_URL: 'http://sandbox:3001' });
    } catch (e) {
      if (e instanceof ConfigValidationError) message = e.message;
    }
    expect(message).toMatch(/ADMIN_API_KEY is required in production/);
    expect(message).toContain('npm run secrets:generate');
    // a refusal with no missing secret does not send the operator to make new ones
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    try {
      loadConfig(CONFIG_SECTIONS, { NODE_ENV: 'development', DATA_DIR: dir, PORT: 'eighty' });
    } catch (e) {
      if (e instanceof ConfigValidationError) message = e.message;
    }
    expect(message).toMatch(/PORT must be an integer/);
    expect(message).not.toContain('secrets:generate');
  });

  it('git ignores the .env secrets:generate writes and the development data directory', () => {
    const root = join(__dirname, '..', '..');
    const ignored = execFileSync('git', ['check-ignore', '.env', '.data/x', '.data/secrets.json'], { cwd: root, encoding: 'utf8' });
    expect(ignored.trim().split('\n')).toEqual(['.env', '.data/x', '.data/secrets.json']);
    const docker = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
    expect(docker).toEqual(expect.arrayContaining(['.env', '.data']));
  });
});
