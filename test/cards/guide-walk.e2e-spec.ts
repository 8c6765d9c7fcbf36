import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CardsApp, startCardsApp } from './support';

/** docs/guide/cards.md: the curl walk runs as written against a fresh service. */
describe('cards guide walk-through', () => {
  let c: CardsApp;
  beforeAll(async () => {
    c = await startCardsApp();
  });
  afterAll(() => c.close());

  it('saves a card, charges it, captures, voids, and runs both 3DS flows', async () => {
    const md = readFileSync(join(__dirname, '../../docs/guide/cards.md'), 'utf8');
    const block = /<!-- walk:start -->\s*```bash\n([\s\S]*?)```\s*<!-- walk:end -->/.exec(md);
    expect(block).not.toBeNull();
    // every "# → …" line of the guide is an output line of the script
    const expected = [...block![1].matchAll(/^# → (.*)$/gm)].map((m) => m[1].replace(/ \(single use\)$/, ''));
    const dir = mkdtempSync(join(tmpdir(), 'pp-cards-walk-'));
    try {
      const { stdout } = await promisify(execFile)('bash', ['-c', block![1]], {
        cwd: dir,
        env: { ...process.env, BASE: c.t.url, TOKEN: c.tenant.token },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(stdout.trim().split('\n')).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
