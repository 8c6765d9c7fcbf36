import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'node_modules/.bin/depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

/** The rules of .dependency-cruiser.cjs applied to a tree; each violation as "rule from → to". */
function violations(cwd: string): string[] {
  let out: string;
  try {
    out = execFileSync(BIN, ['kernel', 'src', 'sandbox', '--config', CONFIG, '--output-type', 'json'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (e: any) {
    out = e.stdout; // depcruise exits non-zero when it finds violations
  }
  const result = JSON.parse(out);
  return result.summary.violations.map((v: any) => `${v.rule.name} ${v.from} → ${v.to}`).sort();
}

describe('the layering lint (ARCHITECTURE.md, "What may import what")', () => {
  it('kernel, src and sandbox have no violation', () => {
    expect(violations(ROOT)).toEqual([]);
  }, 60_000);

  it('catches each planted violation (test/fixtures/layering)', () => {
    const found = violations(join(ROOT, 'test/fixtures/layering'));
    const rules = new Set(found.map((v) => v.split(' ')[0]));
    expect([...rules].sort()).toEqual([
      'common-is-pure',
      'features-do-not-import-features',
      'no-circular',
      'platform-is-the-bottom',
      'provider-is-an-edge',
      'sandbox-reaches-the-service-over-http',
      'the-service-does-not-contain-the-sandbox',
    ]);
    expect(found).toContain('platform-is-the-bottom kernel/platform/kernel.ts → src/links/link.ts');
    expect(found).toContain('sandbox-reaches-the-service-over-http sandbox/src/fake.ts → src/cards/card.ts');
    expect(found).toContain('the-service-does-not-contain-the-sandbox src/accounts/limits.ts → sandbox/src/fake.ts');
  }, 60_000);
});
