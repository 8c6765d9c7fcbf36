#!/usr/bin/env node
// `npm test`: builds (the OpenAPI drift and process tests run the compiled server), makes sure
// a PostgreSQL is reachable (DATABASE_URL, or an embedded one for this run), then runs jest
// and the React Native package's tests. Extra arguments go to jest.
//
// jest runs as an asynchronous child, never spawnSync: the embedded PostgreSQL's stderr is a
// socket this process reads on its event loop. Blocked in spawnSync, nobody read it; once about
// 200 KB of the server's log lines were queued (checkpoints, terminated connections, statements
// that failed), every server process that logged stopped in write(), the checkpointer first, and
// each DROP DATABASE after it waited on CheckpointStart for ever (docs/decisions.md).
const { spawn, execFileSync } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..');
const args = process.argv.slice(2);

let current = null;
// Ctrl-C or a SIGTERM while jest runs goes to it; this process then stops its PostgreSQL and exits.
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => (current ? current.kill(sig) : process.exit(1)));

/** Runs a child to its end while this event loop keeps turning (it drains the embedded server's log). */
function run(cmd, argv, env = process.env) {
  return new Promise((resolve) => {
    current = spawn(cmd, argv, { cwd: root, stdio: 'inherit', env });
    current.on('error', (e) => {
      process.stderr.write(`${cmd}: ${e.message}\n`);
      current = null;
      resolve(1);
    });
    current.on('exit', (code) => {
      current = null;
      resolve(code ?? 1);
    });
  });
}

/** The embedded PostgreSQL's port for a run without DATABASE_URL: the documented EMBEDDED_PG_PORT. */
function embeddedPort(env) {
  return Number(env.EMBEDDED_PG_PORT || env.TEST_EMBEDDED_PG_PORT || 54339);
}

async function main() {
  // A run started from inside the suite (a test of this script) finds dist/ built by the outer
  // run: building again would delete it under the tests that run the compiled service meanwhile.
  if (process.env.PP_TEST_DIST_BUILT !== '1') {
    process.stderr.write('building (nest build)…\n');
    execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: root, stdio: 'inherit' });
  }

  let embedded = null;
  let dir = null;
  const env = { ...process.env, NODE_ENV: 'test', PP_TEST_DIST_BUILT: '1' };
  if (!env.DATABASE_URL) {
    const { EmbeddedPostgres } = require(join(root, 'dist/kernel/platform/database/embedded-postgres.js'));
    dir = mkdtempSync(join(tmpdir(), 'pp-test-pg-'));
    require('node:fs').chmodSync(dir, 0o755);
    const port = embeddedPort(env);
    embedded = new EmbeddedPostgres(dir, port, 'test', (m) => process.stderr.write(`${m}\n`), 'postgres');
    env.DATABASE_URL = await embedded.start();
    process.stderr.write(`no DATABASE_URL: tests use an embedded PostgreSQL on port ${port}\n`);
  }
  let status = await run(process.execPath, [require.resolve('jest/bin/jest'), ...args], env);
  if (status === 0 && args.length === 0) {
    status = await run('npm', ['test', '--silent', '-w', 'packages/react-native-card'], env);
  }
  if (embedded) {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(status);
}

main().catch((e) => {
  process.stderr.write(`${e?.stack ?? e}\n`);
  process.exit(1);
});
