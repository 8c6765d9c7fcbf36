import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { serverUrl } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');

// The benchmarks drive the built service through its own modules; a change to those modules once
// broke `bench/outbox.js` without any test noticing. This runs it small, end to end.
describe('bench/outbox.js', () => {
  it('publishes events in transactions and delivers every one to its receiver', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bench/outbox.js')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: serverUrl(), BENCH_EVENTS: '300' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.stderr).not.toContain('bench/outbox failed');
    expect(r.status).toBe(0);
    const line = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(line).toMatchObject({ name: 'outbox', events: 300, delivered: 300, received: 300 });
    expect(line.deliveriesPerSecond).toBeGreaterThan(0);
  });
});
