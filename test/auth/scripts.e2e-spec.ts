import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { http, startTestApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const run = (script: string, args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(
    process.execPath,
    [require.resolve('ts-node/dist/bin.js'), '--transpile-only', join(ROOT, 'scripts', script), ...args],
    { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 },
  );

describe('operator and caller scripts', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), 'pp-scripts-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('tenant:create prints the new tenant id (migrations first) and refuses a bad CIDR', async () => {
    const { stdout } = await run(
      'tenant-create.ts',
      ['--name', 'ACME', '--allow', '127.0.0.1/32', '--allow', '::1', '--rate-limit', '250'],
      { DATABASE_URL: t.databaseUrl },
    );
    const id = stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await t.sql('SELECT name, allowed_cidrs, rate_limit_per_minute FROM tenants WHERE id = $1', [id]);
    expect(row).toEqual({ name: 'ACME', allowed_cidrs: ['127.0.0.1/32', '::1/128'], rate_limit_per_minute: 250 });
    await expect(run('tenant-create.ts', ['--name', 'X', '--allow', 'not-an-ip'], { DATABASE_URL: t.databaseUrl })).rejects.toMatchObject({
      stderr: expect.stringContaining('not an IPv4/IPv6 address or CIDR'),
    });
  });

  it('credentials:setup does steps 1-4 and writes a 0600 file whose credentials get a token', async () => {
    const c = await http(
      t.url,
      'POST',
      '/admin/tenants',
      { name: 'Caller', allowedCidrs: ['127.0.0.1/32', '::1/128'] },
      { 'X-Admin-Key': t.adminKey },
    );
    const out = join(dir, 'creds.json');
    const r = await run('credentials-setup.ts', ['--tenant', c.body.tenantId, '--url', t.url, '--out', out]);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const creds = JSON.parse(readFileSync(out, 'utf8'));
    expect(creds).toMatchObject({
      tenantId: c.body.tenantId,
      keyId: expect.any(String),
      clientId: expect.stringMatching(/^cli_/),
      clientSecret: expect.stringMatching(/^sec_/),
    });
    expect(creds.privateKeyPem).toContain('BEGIN PRIVATE KEY');
    expect(r.stderr + r.stdout).not.toContain(creds.clientSecret);
    const tok = await http(t.url, 'POST', '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: creds.clientId,
      client_secret: creds.clientSecret,
    });
    expect(tok.status).toBe(200);
    // never overwrites silently
    await expect(run('credentials-setup.ts', ['--tenant', c.body.tenantId, '--url', t.url, '--out', out])).rejects.toMatchObject({
      stderr: expect.stringContaining('exists'),
    });
    expect(JSON.parse(readFileSync(out, 'utf8')).clientSecret).toBe(creds.clientSecret);
  });

  it('credentials:setup says why when the service refuses (IP not allowed) and leaves no file', async () => {
    const c = await http(t.url, 'POST', '/admin/tenants', { name: 'Far', allowedCidrs: ['203.0.113.0/24'] }, { 'X-Admin-Key': t.adminKey });
    const out = join(dir, 'far.json');
    await expect(run('credentials-setup.ts', ['--tenant', c.body.tenantId, '--url', t.url, '--out', out])).rejects.toMatchObject({
      stderr: expect.stringContaining('ip_not_allowed'),
    });
    expect(() => statSync(out)).toThrow();
  });
});
