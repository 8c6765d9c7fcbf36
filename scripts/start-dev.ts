// `npm run start:dev`: Nest's watch mode (recompile and restart on every change under src/),
// with the database kept across restarts: DATABASE_URL, or else the embedded PostgreSQL of
// DATA_DIR, started once here and stopped when this command stops. The watch build goes to
// .dev-dist/, so it never deletes the dist/ that `npm start` and the tests run.
import { spawn } from 'node:child_process';
import { scriptDatabase } from './lib/database';

function groupKill(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

async function groupGone(pgid: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (groupKill(pgid, 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  groupKill(pgid, 'SIGKILL');
}

async function main(): Promise<void> {
  const db = await scriptDatabase();
  const nest = require.resolve('@nestjs/cli/bin/nest.js');
  const child = spawn(process.execPath, [nest, 'start', '--watch', '--preserveWatchOutput', '--path', 'tsconfig.dev.json'], {
    stdio: 'inherit',
    detached: true, // its own process group: a signal reaches the CLI and the service it runs
    env: { ...process.env, DATABASE_URL: db.url, NODE_ENV: process.env.NODE_ENV ?? 'development' },
  });
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    groupKill(child.pid!, signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const code = await new Promise<number>((resolve) => child.on('exit', (c, s) => resolve(c ?? (s ? 0 : 1))));
  // The CLI may exit before the service it ran has drained: the database stops after both.
  await groupGone(child.pid!, 12_000);
  await db.stop();
  process.exit(stopping ? 0 : code);
}

main().catch((e) => {
  process.stderr.write(`start:dev failed: ${e?.message ?? e}\n`);
  process.exit(1);
});
