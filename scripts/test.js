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

/** `url` with its database swapped for `db` (same server, user and options). */
function databaseAt(url, db) {
  return Object.assign(new URL(url), { pathname: `/${db}` }).toString();
}

/**
 * A database migrated once for this run, both apps' migrations as their boot runs them (the
 * sandbox's schema and then the service's), from the compiled dist/ just built. Every test app
 * is then made by `CREATE DATABASE … TEMPLATE` of it (test/support/test-app.ts), a copy, instead
 * of running every migration of both apps again: on this suite's two cores that was most of a
 * second per app, and a run boots about a hundred. Nothing connects to it after this, so copies
 * can be made side by side. Returns its name, or null when it could not be made (the apps then
 * migrate at boot, as they do when jest is run directly).
 */
async function migratedTemplate(url) {
  const { Client } = require('pg');
  const { DataSource } = require('typeorm');
  const dist = (p) => require(join(root, 'dist', p));
  const { dataSourceOptions, SERVICE_DATABASE } = dist('kernel/platform/database/data-source.factory.js');
  const { runMigrationsLocked } = dist('kernel/platform/database/migrate.js');
  const { SANDBOX_DATABASE } = dist('sandbox/src/sandbox-database.js');
  const name = `pp_template_${Date.now().toString(36)}_${process.pid}`;
  const admin = new Client({ connectionString: databaseAt(url, 'postgres') });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    for (const layout of [SANDBOX_DATABASE, SERVICE_DATABASE]) {
      const ds = new DataSource(dataSourceOptions(databaseAt(url, name), 4, 60_000, layout));
      await ds.initialize();
      try {
        if (layout.schema) await ds.query(`CREATE SCHEMA IF NOT EXISTS "${layout.schema}"`);
        await runMigrationsLocked(ds);
      } finally {
        await ds.destroy();
      }
    }
    return name;
  } catch (e) {
    process.stderr.write(`no migrated template (${e.message}): each test app migrates its own database\n`);
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    return null;
  } finally {
    await admin.end().catch(() => undefined);
  }
}

async function dropTemplate(url, name) {
  const { Client } = require('pg');
  const admin = new Client({ connectionString: databaseAt(url, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => admin.end());
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
    try {
      env.DATABASE_URL = await embedded.start();
    } catch (e) {
      // one line saying what to do (EmbeddedPostgresError), never a stack
      rmSync(dir, { recursive: true, force: true });
      process.stderr.write(`\nno DATABASE_URL, and ${String(e?.message ?? e).split('\n')[0]}\n\n`);
      process.exit(1);
    }
    process.stderr.write(`no DATABASE_URL: tests use an embedded PostgreSQL on port ${port}\n`);
  }
  // this run's own, on this run's server (a run started from inside the suite has another)
  const template = await migratedTemplate(env.DATABASE_URL);
  if (template) env.PP_TEST_TEMPLATE_DB = template;
  else delete env.PP_TEST_TEMPLATE_DB;
  let status = await run(process.execPath, [require.resolve('jest/bin/jest'), ...args], env);
  if (status === 0 && args.length === 0) {
    status = await run('npm', ['test', '--silent', '-w', 'packages/react-native-card'], env);
  }
  if (template) await dropTemplate(env.DATABASE_URL, template).catch(() => undefined);
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
