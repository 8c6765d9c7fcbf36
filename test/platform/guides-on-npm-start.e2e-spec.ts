import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitHealthReady } from '../support/health-ready';
import { CHECKOUT, expectedLines, guideWalk, runWalk } from '../support/guide-walk';
import { npmStartPorts } from '../support/ports';

/**
 * Every guide's walk, pasted as a newcomer would, one after the other on ONE plain `npm start`
 * (the service and the sandbox app with their embedded PostgreSQL, no DATABASE_URL, no REDIS_URL,
 * no BANK_PROVIDER or ACQUIRER_PROVIDER: the launcher's defaults), then all of them again in the
 * reverse order on the same instance, whose test clock the first round moved weeks ahead. Each
 * walk runs in a fresh bash from the checkout, with nothing of ours in its environment but where
 * the instance is (its ports and DATA_DIR, since the test cannot take 3000 and 3001): every other
 * variable it uses is set by one of its own steps.
 */

/** The guides in the order a newcomer meets them; a guide with a walk that is not listed fails the test. */
const ORDER = ['auth', 'pix-automatic', 'links', 'cards', 'refunds'];
/** Guides without a walk block: the webhooks guide's receivers are run by test/webhooks/guide.spec.ts. */
const NO_WALK = ['webhooks'];

/**
 * Each `# → …` line of the walk must be printed, in order (lines the guide does not annotate, such
 * as a BR Code, are skipped). `…` stands for any text; a trailing note in parentheses after a
 * plain value (`410 (single use)`) is prose. The guide's ports are the defaults; this instance's
 * are given in `ports`.
 */
function expectPrinted(stdout: string, walk: string, ports: Record<string, number>): void {
  const printed = stdout.trim().split('\n');
  let at = 0;
  for (const raw of expectedLines(walk)) {
    let line = /[}\]"]$/.test(raw) ? raw : raw.replace(/\s+\([^)]*\)$/, '');
    for (const [from, to] of Object.entries(ports)) line = line.split(`:${from}/`).join(`:${to}/`);
    const pattern = new RegExp(
      `^${line
        .split('…')
        .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    const found = printed.findIndex((p, i) => i >= at && pattern.test(p));
    if (found < 0) throw new Error(`the walk did not print ${JSON.stringify(line)} after line ${at}.\n--- it printed:\n${stdout}`);
    at = found + 1;
  }
}

describe('every guide walk on one plain npm start', () => {
  jest.setTimeout(600_000);
  let app: ChildProcess;
  let out = '';
  let dataDir: string;
  let walkEnv: Record<string, string | undefined>;
  let ports: Record<string, number>;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pp-guides-'));
    chmodSync(dataDir, 0o755);
    const { port, pgPort, sandboxPort, env: pair } = await npmStartPorts();
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', DATA_DIR: dataDir };
    for (const v of ['DATABASE_URL', 'REDIS_URL', 'BANK_PROVIDER', 'ACQUIRER_PROVIDER', 'PP_TEST_TEMPLATE_DB']) delete env[v];
    Object.assign(env, pair);
    // what `npm start` runs (package.json: exec node scripts/start.js)
    app = spawn(process.execPath, [join(CHECKOUT, 'scripts/start.js')], { cwd: CHECKOUT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    app.stdout!.on('data', (d) => (out += d));
    app.stderr!.on('data', (d) => (out += d));
    await waitHealthReady([`http://127.0.0.1:${port}`, `http://127.0.0.1:${sandboxPort}`], {
      timeoutMs: 120_000,
      intervalMs: 250,
      failure: () => `npm start did not become ready:\n${out}`,
    });
    ports = { 3000: port, 3001: sandboxPort };
    // a fresh shell: where the instance is, and nothing else of the suite's (no DATABASE_URL)
    walkEnv = {
      BASE: `http://localhost:${port}`,
      SANDBOX_URL: `http://localhost:${sandboxPort}`,
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      NODE_ENV: undefined,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      TOKEN: undefined,
      TENANT: undefined,
    };
  });

  afterAll(async () => {
    if (app && app.exitCode === null) {
      const exited = new Promise((r) => app.once('exit', r));
      app.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('every guide under docs/guide has a walk run here, or is known to have none', () => {
    const guides = readdirSync(join(CHECKOUT, 'docs/guide'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3));
    expect([...guides].sort()).toEqual([...ORDER, ...NO_WALK].sort());
    for (const g of NO_WALK) expect(() => guideWalk(`${g}.md`)).toThrow(/no walk block/);
  });

  it.each(ORDER.map((g) => [g]))('walk of %s.md, as written', async (guide) => {
    const walk = guideWalk(`${guide}.md`);
    expect(walk).not.toMatch(/^\s*set -e/m); // it would close the terminal it is pasted into
    expect(walk).not.toMatch(/sleep 0?\.\d/); // polls at most once a second (the tenant's 100 requests a minute)
    expectPrinted(await runWalk(walk, walkEnv, 180_000), walk, ports);
  });

  it.each([...ORDER].reverse().map((g) => [g]))('walk of %s.md again, in the reverse order, after the clock has moved', async (guide) => {
    const walk = guideWalk(`${guide}.md`);
    expectPrinted(await runWalk(walk, walkEnv, 180_000), walk, ports);
  });

  it('the sandbox clock resets to today, and a walk runs again on it', async () => {
    const sandbox = walkEnv.SANDBOX_URL!;
    const before = await (await fetch(`${sandbox}/sandbox/clock`)).json();
    const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'America/Sao_Paulo' });
    expect(before.today > today).toBe(true); // the walks moved it weeks ahead
    const reset = await fetch(`${sandbox}/sandbox/clock/reset`, { method: 'POST' });
    expect([reset.status, (await reset.json()).today]).toEqual([200, today]);
    const walk = guideWalk('pix-automatic.md');
    expectPrinted(await runWalk(walk, walkEnv, 180_000), walk, ports);
  });
});
