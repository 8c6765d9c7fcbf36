import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GuardedPgClient } from './pg-client';
import { accessProblem, EmbeddedPostgresError, firstLine, portFree, programsDirOf, runAsUser } from './embedded-postgres-access';

export { EmbeddedPostgresError } from './embedded-postgres-access';

export class DataDirInUseError extends Error {
  constructor(
    readonly pid: number,
    dir: string,
  ) {
    super(
      `The embedded PostgreSQL data directory ${dir} is in use by a running service (pid ${pid}). Stop it first, or set DATA_DIR to another directory or DATABASE_URL to an external database.`,
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e: any) {
    return e.code === 'EPERM';
  }
}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

// ESM package loaded from CommonJS without TypeScript turning import() into require().
/** The runtime image leaves out the optional `embedded-postgres` package: it needs DATABASE_URL. */
export class EmbeddedPostgresMissingError extends Error {
  constructor() {
    super(
      'DATABASE_URL is not set and the embedded PostgreSQL is not installed here (the production image leaves out the optional embedded-postgres package): set DATABASE_URL to your PostgreSQL.',
    );
  }
}

const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<any>;

/**
 * The embedded default: a real PostgreSQL from the `embedded-postgres` package, data kept
 * under DATA_DIR/postgres. A lock file holds the owning service's pid so a second start says
 * clearly that the directory is in use; a postmaster orphaned by a killed process is stopped.
 *
 * The server's stderr (its log) is a socket read on this process's event loop: while the server
 * runs, its owner never blocks that loop (no spawnSync or execFileSync of a long child), or once
 * about 200 KB of log lines are queued every server process that logs stops in write(), the
 * checkpointer first, and each DROP DATABASE waits on it for ever (docs/decisions.md).
 */
export class EmbeddedPostgres {
  private pg: any = null;
  private readonly pgDir: string;
  private readonly lockFile: string;

  constructor(
    dataDir: string,
    private readonly port: number,
    private readonly password: string,
    private readonly log: (msg: string) => void = () => undefined,
    private readonly database = 'payments',
  ) {
    this.pgDir = resolve(dataDir, 'postgres');
    this.lockFile = resolve(dataDir, 'service.lock');
  }

  get url(): string {
    return `postgres://postgres:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}/${this.database}`;
  }

  /**
   * Starts it (initialising the data directory the first time). Every failure the operator can
   * fix (a directory its user cannot enter, the port taken, initdb refusing) is an
   * {@link EmbeddedPostgresError} with one line saying what to do.
   */
  async start(): Promise<string> {
    mkdirSync(resolve(this.pgDir, '..'), { recursive: true });
    this.takeLock();
    try {
      return await this.startLocked();
    } catch (e) {
      this.releaseLock();
      throw e;
    }
  }

  private async startLocked(): Promise<string> {
    await this.stopOrphan();
    const user = runAsUser();
    const dataProblem = user && accessProblem(user, this.pgDir);
    if (dataProblem) throw new EmbeddedPostgresError('embedded_pg_unreachable_directory', dataProblem);
    if (!(await portFree(this.port))) {
      throw new EmbeddedPostgresError(
        'embedded_pg_port_in_use',
        `The embedded PostgreSQL's port ${this.port} on 127.0.0.1 is in use: stop what holds it, set EMBEDDED_PG_PORT to a free port, or set DATABASE_URL.`,
      );
    }
    const signalsBefore = { TERM: process.listeners('SIGTERM'), INT: process.listeners('SIGINT') };
    const mod = await importEsm('embedded-postgres').catch((e: { code?: string }) => {
      if (e?.code !== 'ERR_MODULE_NOT_FOUND' && e?.code !== 'MODULE_NOT_FOUND') throw e;
      throw new EmbeddedPostgresMissingError();
    });
    // The package installs exit hooks that call process.exit on SIGTERM; the service drains
    // requests first and stops PostgreSQL itself, so those hooks are removed.
    for (const l of process.listeners('SIGTERM')) if (!signalsBefore.TERM.includes(l)) process.removeListener('SIGTERM', l);
    for (const l of process.listeners('SIGINT')) if (!signalsBefore.INT.includes(l)) process.removeListener('SIGINT', l);
    const programsProblem = user && accessProblem(user, this.pgDir, await programsDirOf(importEsm));
    if (programsProblem) throw new EmbeddedPostgresError('embedded_pg_unreachable_directory', programsProblem);
    const Ctor = mod.default;
    this.pg = new Ctor({
      databaseDir: this.pgDir,
      port: this.port,
      user: 'postgres',
      password: this.password,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      authMethod: 'scram-sha-256',
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200', '-c', 'fsync=on'],
      onLog: () => undefined,
      onError: (m: unknown) => this.log(`embedded postgres: ${String(m).trim()}`),
    });
    if (!existsSync(join(this.pgDir, 'PG_VERSION'))) {
      this.log(`initialising embedded PostgreSQL in ${this.pgDir}`);
      try {
        await this.pg.initialise();
      } catch (e) {
        throw new EmbeddedPostgresError(
          'embedded_pg_init_failed',
          `The embedded PostgreSQL could not initialise ${this.pgDir} (${firstLine(e)}): set DATA_DIR to a directory it can write, or set DATABASE_URL.`,
        );
      }
    }
    try {
      await this.pg.start();
    } catch {
      throw new EmbeddedPostgresError(
        'embedded_pg_start_failed',
        `The embedded PostgreSQL did not start on port ${this.port} (its data in ${this.pgDir}): set EMBEDDED_PG_PORT to a free port, or set DATABASE_URL.`,
      );
    }
    await this.ensureDatabase();
    return this.url;
  }

  async stop(): Promise<void> {
    try {
      if (this.pg) await this.pg.stop();
    } finally {
      this.pg = null;
      this.releaseLock();
    }
  }

  private takeLock(): void {
    if (existsSync(this.lockFile)) {
      const pid = Number(readFileSync(this.lockFile, 'utf8').trim());
      if (pid && pid !== process.pid && alive(pid)) throw new DataDirInUseError(pid, this.pgDir);
    }
    writeFileSync(this.lockFile, String(process.pid));
  }

  private releaseLock(): void {
    try {
      if (existsSync(this.lockFile) && readFileSync(this.lockFile, 'utf8').trim() === String(process.pid)) rmSync(this.lockFile);
    } catch {
      /* best effort */
    }
  }

  /** A postmaster left by a killed service still holds the directory: stop it. */
  private async stopOrphan(): Promise<void> {
    const pidFile = join(this.pgDir, 'postmaster.pid');
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    if (!pid || !alive(pid)) {
      rmSync(pidFile, { force: true });
      return;
    }
    this.log(`stopping a PostgreSQL (pid ${pid}) left running by an earlier process`);
    process.kill(pid, 'SIGINT');
    if (!(await waitGone(pid, 10000))) {
      process.kill(pid, 'SIGKILL');
      await waitGone(pid, 3000);
    }
    rmSync(pidFile, { force: true });
  }

  private async ensureDatabase(): Promise<void> {
    const c = new GuardedPgClient({ host: '127.0.0.1', port: this.port, user: 'postgres', password: this.password, database: 'postgres' });
    await c.connect();
    try {
      const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [this.database]);
      if (!r.rowCount) await c.query(`CREATE DATABASE "${this.database}"`);
    } finally {
      await c.end();
    }
  }
}
