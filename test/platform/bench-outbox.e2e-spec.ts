import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverUrl } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');

// The benchmarks drive the built service through its own modules; a change to those modules once
// broke `bench/outbox.js` without any test noticing. This runs it small, end to end.
describe('bench/outbox.js', () => {
  it('publishes events in transactions, delivers every one to its receiver, and profiles the worker when asked', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-outbox-test-'));
    try {
      const profile = join(dir, 'worker.cpuprofile');
      const r = spawnSync(process.execPath, [join(ROOT, 'bench/outbox.js')], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: serverUrl(), BENCH_EVENTS: '300', OUTBOX_PROFILE: profile },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.stderr).not.toContain('bench/outbox failed');
      expect(r.status).toBe(0);
      const line = JSON.parse(r.stdout.trim().split('\n').pop()!);
      expect(line).toMatchObject({ name: 'outbox', events: 300, delivered: 300, received: 300 });
      expect(line.deliveriesPerSecond).toBeGreaterThan(0);
      expect(line.workerCpuUsPerDelivery).toBeGreaterThan(0);
      expect(line.receiverCpuUsPerDelivery).toBeGreaterThan(0);
      // the whole machine over the window (Linux /proc/stat; null elsewhere): shares of its CPU time, and per delivery
      if (!existsSync('/proc/stat')) expect(line.machine).toBeNull();
      else expect(line.machine.busyShare).toBeGreaterThan(0);
      expect(line.machine?.busyShare ?? 0).toBeLessThanOrEqual(1);
      expect(line.machine?.stealShare ?? 0).toBeGreaterThanOrEqual(0);
      if (line.machine) expect(line.machine.cpuUsPerDelivery).toBeGreaterThan(0);
      // a V8 CPU profile of the delivery window, in which the worker's own code was sampled
      const p = JSON.parse(readFileSync(profile, 'utf8')) as { nodes: { callFrame: { url: string } }[]; samples: number[] };
      expect(p.samples.length).toBeGreaterThan(0);
      expect(p.nodes.some((n) => n.callFrame.url.includes('delivery-worker'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
