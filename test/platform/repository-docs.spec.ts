import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository speaks to its own readers. A reader has this repository and nothing beside it:
 * no sibling `shared` folder, no tracker. So no file points to a path above the repository, and
 * no comment or decision record cites a tracker number in place of what was decided and why.
 * The interface is `openapi.json` and `docs/guide/`; decisions are in `docs/decisions*`.
 */
const ROOT = join(__dirname, '..', '..');

/** Vendored external standards keep their own text; their NOTICE says where they came from. */
const VENDORED = [/^test\/fixtures\/pix-api\//];

/** A path into a sibling `shared` folder (written so this file does not match itself). */
const SHARED_PATH = new RegExp(['\\.\\.', 'shared', ''].join('/'));
/** The word issue followed by a number: with or without `#`, singular or plural (examples below). */
const ISSUE_NUMBER = /\bissues? ?#?\d+/i;

export function findingsIn(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (SHARED_PATH.test(line)) out.push(`${i + 1}: points outside the repository: ${line.trim()}`);
    if (ISSUE_NUMBER.test(line)) out.push(`${i + 1}: cites a tracker number: ${line.trim()}`);
  });
  return out;
}

/** Tracked files and new ones not ignored, so a file fails before it is committed. */
function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return out
    .split('\0')
    .filter(Boolean)
    .filter((f) => !VENDORED.some((v) => v.test(f)));
}

function isText(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
  } catch {
    return false; // deleted in the work tree, not yet in the index
  }
  return !readFileSync(path).subarray(0, 8000).includes(0);
}

describe('the repository speaks to its own readers', () => {
  it('recognises both kinds of finding (the check can fail)', () => {
    expect(findingsIn('see ' + ['..', 'shared', 'spec/x.md'].join('/'))).toHaveLength(1);
    // built from parts, so that this file does not cite what it plants
    for (const [word, number] of [
      ['issue', ' 15'],
      ['Issue', ' #18'],
      ['(issue', ' 12)'],
      ['issues', ' 15 and 18'],
      ['ISSUE', '14'],
    ]) {
      expect(findingsIn(`a comment ${word + number} here`)).toHaveLength(1);
    }
    expect(findingsIn('the shared key; PKCS#1 v1.5; a tissue 3 cm; #18 alone')).toEqual([]);
  });

  it('no tracked file, vendored standards aside, points to a sibling shared folder or cites an issue number', () => {
    const files = repositoryFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('ARCHITECTURE.md');
    const findings = files
      .filter((f) => isText(join(ROOT, f)))
      .flatMap((f) => findingsIn(readFileSync(join(ROOT, f), 'utf8')).map((x) => `${f}:${x}`));
    expect(findings).toEqual([]);
  });

  it('the vendored API Pix standard says where it came from', () => {
    const notice = readFileSync(join(ROOT, 'test/fixtures/pix-api/NOTICE.md'), 'utf8');
    expect(notice).toMatch(/Central Bank of Brazil/);
    expect(notice).toMatch(/public `pix-api` repository/);
  });
});
