import { isValidSpanId, isValidTraceId } from '@opentelemetry/api';
import { randomFillSync } from 'node:crypto';
import { PooledIdGenerator } from './id-generator';

describe('trace and span ids', () => {
  it('are valid W3C ids, all different, across many pool refills', () => {
    const g = new PooledIdGenerator();
    const traces = new Set<string>();
    const spans = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const t = g.generateTraceId();
      const s = g.generateSpanId();
      expect(isValidTraceId(t) && isValidSpanId(s)).toBe(true);
      traces.add(t);
      spans.add(s);
    }
    expect([traces.size, spans.size]).toEqual([5000, 5000]);
  });

  it('spread evenly over the hex digits (trace-id ratio sampling reads them as a number)', () => {
    const g = new PooledIdGenerator();
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) for (const c of g.generateTraceId()) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(16);
    // 128 000 digits, 8 000 expected each: a biased or stuck source falls far outside ±10 %
    for (const n of counts.values()) expect(Math.abs(n - 8000)).toBeLessThan(800);
  });

  it('never returns an all-zero id: it draws again', () => {
    let draws = 0;
    // the first pool is all zeros, as a (2^-128) unlucky draw would be for one id
    const g = new PooledIdGenerator((b) => (draws++ === 0 ? b.fill(0) : randomFillSync(b)));
    expect(isValidTraceId(g.generateTraceId())).toBe(true);
    expect(isValidSpanId(g.generateSpanId())).toBe(true);
    expect(draws).toBe(2);
  });
});
