import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/**
 * Runs a walk as a reader would, with bash in an empty directory, and answers what it printed.
 * When it fails, the error holds what it had printed by then and its stderr, which names the step
 * that stopped it (a failed curl prints its status, and the output so far says how far it got).
 * `dir`: run there and leave it, for a test that reads the files the walk writes (its own to remove).
 */
export async function runWalk(walk: string, env: Record<string, string>, timeoutMs = 60_000, dir?: string): Promise<string> {
  const cwd = dir ?? mkdtempSync(join(tmpdir(), 'pp-walk-'));
  try {
    return await new Promise<string>((resolve, reject) => {
      execFile(
        'bash',
        ['-c', walk],
        { cwd, env: { ...process.env, ...env }, encoding: 'utf8', timeout: timeoutMs },
        (err, stdout, stderr) => {
          if (!err) return resolve(stdout);
          const why = err.killed ? `killed after ${timeoutMs} ms` : `exit code ${String(err.code)}`;
          reject(new Error(`the walk stopped (${why}).\n--- printed so far:\n${stdout}--- stderr:\n${stderr}`));
        },
      );
    });
  } finally {
    if (!dir) rmSync(cwd, { recursive: true, force: true });
  }
}
