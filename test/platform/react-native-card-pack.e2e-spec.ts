import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const PKG = 'packages/react-native-card';

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function typecheck(dir: string): { ok: boolean; out: string } {
  try {
    return { ok: true, out: run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], dir) };
  } catch (e: any) {
    return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/**
 * Item 4: the package as a client team gets it. A clean tree (only the tracked files: no lib/),
 * `npm pack`, the tarball installed into a scratch app whose own React Native dependencies are
 * provided, and a use of the component typechecked against what the tarball ships.
 */
describe('@service/react-native-card packed from a clean tree', () => {
  it('ships its compiled code and types, the full licence, and a use of it typechecks', () => {
    // A copy of the tracked files under the repository (so the build finds the workspace's
    // TypeScript and React types, as a fresh checkout after `npm ci` would).
    const clean = mkdtempSync(join(ROOT, '.pack-test-'));
    const app = mkdtempSync(join(tmpdir(), 'pp-rn-app-'));
    try {
      const tracked = run('git', ['ls-files', PKG], ROOT).split('\n').filter(Boolean);
      expect(tracked.some((f) => f.startsWith(`${PKG}/lib/`))).toBe(false);
      for (const f of tracked) {
        mkdirSync(dirname(join(clean, f)), { recursive: true });
        cpSync(join(ROOT, f), join(clean, f));
      }
      const pkgDir = join(clean, PKG);
      const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', app], pkgDir))[0];
      const files: string[] = packed.files.map((f: { path: string }) => f.path).sort();
      expect(files).toEqual(
        expect.arrayContaining([
          'LICENSE',
          'README.md',
          'package.json',
          'lib/index.js',
          'lib/index.d.ts',
          'lib/ServiceCardForm.js',
          'lib/ServiceCardForm.d.ts',
        ]),
      );
      expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);

      const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
      expect(manifest.repository).toMatchObject({ type: 'git', directory: PKG });
      expect(manifest.engines.node).toBeDefined();
      const licence = readFileSync(join(pkgDir, 'LICENSE'), 'utf8');
      expect(licence).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
      expect(licence).toContain('9. Accepting Warranty or Additional Liability.');

      // The scratch app: the tarball installed; React, React Native and the web view are the
      // app's own (peer) dependencies, provided here from the workspace.
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'scratch-app', version: '1.0.0', private: true }));
      run(
        'npm',
        ['install', join(app, packed.filename), '--offline', '--ignore-scripts', '--legacy-peer-deps', '--no-audit', '--no-fund'],
        app,
      );
      const modules = join(app, 'node_modules');
      expect(readdirSync(join(modules, '@service/react-native-card/lib'))).toContain('index.js');
      mkdirSync(join(modules, '@types'), { recursive: true });
      for (const peer of ['react', 'react-native', 'react-native-webview', '@types/react'])
        symlinkSync(join(ROOT, 'node_modules', peer), join(modules, peer));
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            jsx: 'react-jsx',
            module: 'commonjs',
            moduleResolution: 'node',
            target: 'ES2019',
            skipLibCheck: true,
            esModuleInterop: true,
            types: [],
          },
          include: ['app.tsx'],
        }),
      );
      writeFileSync(
        join(app, 'app.tsx'),
        `import { ServiceCardForm, SERVICE_CARD_ERROR_CODES } from '@service/react-native-card';
import type { ServiceCardError, ServiceCardTokenizedResult } from '@service/react-native-card';
export const codes: readonly string[] = SERVICE_CARD_ERROR_CODES;
export function Pay({ url }: { url: string }) {
  return (
    <ServiceCardForm
      hostedCardUrl={url}
      allowedOrigins={['https://cards.example.com']}
      onSuccess={(r: ServiceCardTokenizedResult) => void r.last4}
      onError={(e: ServiceCardError) => void e.retryable}
    />
  );
}
`,
      );
      const good = typecheck(app);
      expect(good.out).toBe('');
      expect(good.ok).toBe(true);
      // The types are real: a use without the required onError does not typecheck.
      writeFileSync(
        join(app, 'app.tsx'),
        `import { ServiceCardForm } from '@service/react-native-card';\nexport const x = <ServiceCardForm hostedCardUrl="https://cards.example.com/s" onSuccess={() => undefined} />;\n`,
      );
      const bad = typecheck(app);
      expect(bad.ok).toBe(false);
      expect(bad.out).toContain('onError');
    } finally {
      rmSync(clean, { recursive: true, force: true });
      rmSync(app, { recursive: true, force: true });
    }
  }, 120000);
});
