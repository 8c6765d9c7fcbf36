import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('answers a fresh value synchronously, shares one load between concurrent misses, reloads when stale', async () => {
    let loads = 0;
    const c = new TtlCache(async (k) => `${k}#${++loads}`, { ttlMs: 50, maxEntries: 10 });
    const [a, b] = await Promise.all([c.get('x'), c.get('x')]);
    expect([a, b, loads]).toEqual(['x#1', 'x#1', 1]);
    expect(c.get('x')).toBe('x#1'); // not a promise
    await new Promise((r) => setTimeout(r, 60));
    expect(c.peek('x')).toMatchObject({ value: 'x#1' });
    expect(c.peek('x')!.ageMs).toBeGreaterThanOrEqual(50);
    await expect(c.get('x')).resolves.toBe('x#2');
  });

  it('keeps nothing from a failed load (the next call tries again) and the last good value stays peekable', async () => {
    let fail = false;
    const c = new TtlCache(
      async (k) => {
        if (fail) throw new Error('down');
        return k.length;
      },
      { ttlMs: 0, maxEntries: 10 },
    );
    await expect(c.get('abc')).resolves.toBe(3);
    fail = true;
    await expect(c.get('abc')).rejects.toThrow('down');
    expect(c.peek('abc')!.value).toBe(3);
    fail = false;
    await expect(c.get('abc')).resolves.toBe(3);
  });

  it('set() replaces the value at once; the copy is bounded', async () => {
    const c = new TtlCache(async () => false, { ttlMs: 10_000, maxEntries: 2 });
    c.set('k1', true);
    expect(c.get('k1')).toBe(true);
    c.set('k2', true);
    c.set('k3', true); // full: cleared first
    expect(c.peek('k1')).toBeUndefined();
    expect(c.get('k3')).toBe(true);
  });
});
