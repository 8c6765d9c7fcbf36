import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The bash block between `<!-- walk:start -->` and `<!-- walk:end -->` of a guide under docs/guide. */
export function guideWalk(guide: string): string {
  const md = readFileSync(join(__dirname, '../../docs/guide', guide), 'utf8');
  const block = /<!-- walk:start -->\s*```bash\n([\s\S]*?)```\s*<!-- walk:end -->/.exec(md);
  if (!block) throw new Error(`docs/guide/${guide} has no walk block`);
  return block[1];
}

/** The guide's printed results: each `# → …` line of its walk. */
export function expectedLines(walk: string): string[] {
  return [...walk.matchAll(/^# → (.*)$/gm)].map((m) => m[1]);
}

/** The checkout: where a reader pastes a walk (its step 0 runs `npm run tenant:create` and `credentials:setup` there). */
export const CHECKOUT = join(__dirname, '../..');

/**
 * Runs a walk as a reader would, with bash in the checkout, and answers what it printed. The walk
 * makes its own scratch folder with `mktemp -d`, under `scratch` when given (a test that reads
 * the files the walk writes; its own to remove), else under a folder removed afterwards.
 * `env` is laid over this process's environment; a variable given as undefined is unset (a walk
 * on a plain `npm start` finds the embedded database by DATA_DIR, not by the suite's DATABASE_URL).
 * When it fails, the error holds what it had printed by then and its stderr, which names the step
 * that stopped it (a failed curl prints its status, and the output so far says how far it got).
 */
export async function runWalk(
  walk: string,
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
  scratch?: string,
): Promise<string> {
  const tmp = scratch ?? mkdtempSync(join(tmpdir(), 'pp-walk-'));
  const merged: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete merged[k];
    else merged[k] = v;
  }
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile('bash', ['-c', walk], { cwd: CHECKOUT, env: merged, encoding: 'utf8', timeout: timeoutMs }, (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const why = err.killed ? `killed after ${timeoutMs} ms` : `exit code ${String(err.code)}`;
        reject(new Error(`the walk stopped (${why}).\n--- printed so far:\n${stdout}--- stderr:\n${stderr}`));
      });
    });
  } finally {
    if (!scratch) rmSync(tmp, { recursive: true, force: true });
  }
}

/** The one folder a walk made with `mktemp -d` under `scratch`. */
export function walkFolder(scratch: string): string {
  const made = readdirSync(scratch).filter((f) => f.startsWith('tmp.'));
  if (made.length !== 1) throw new Error(`expected one walk folder under ${scratch}, found ${made.join(', ') || 'none'}`);
  return join(scratch, made[0]);
}
