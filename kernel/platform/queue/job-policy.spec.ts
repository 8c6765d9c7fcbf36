import { backoffMs, JobPolicy } from './job-policy';

describe('a job policy', () => {
  const p: JobPolicy = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000, dependency: 'acquirer' };

  it('waits 1, 3, 9, 27 times its base after each failure, never more than its cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffMs(p, a))).toEqual([1000, 3000, 9000, 27000, 60000, 60000]);
  });

  it('never overflows on a job that failed many times', () => {
    expect(backoffMs(p, 10_000)).toBe(60_000);
  });
});
