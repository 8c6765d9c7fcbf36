import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { freePorts } from '../support/ports';

const ROOT = join(__dirname, '..', '..');

/**
 * `npm test` with no DATABASE_URL starts its own PostgreSQL on the documented EMBEDDED_PG_PORT,
 * and keeps reading its log while jest runs (the fixture makes it write more than a socket holds).
 */
describe('npm test without DATABASE_URL', () => {
  it('runs the embedded PostgreSQL on EMBEDDED_PG_PORT, and it keeps serving however much it logs', async () => {
    const [port] = await freePorts(1);
    const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_PORT: String(port) };
    delete env.DATABASE_URL;
    delete env.TEST_EMBEDDED_PG_PORT;
    const r = spawnSync(process.execPath, ['scripts/test.js', '--testRegex', 'noisy-postgres\\.fixture\\.ts$'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 170_000,
    });
    expect(r.stderr).toContain(`tests use an embedded PostgreSQL on port ${port}`);
    expect(r.stderr).toContain('1 passed');
    expect(r.status).toBe(0);
  }, 180_000);
});
