import { randomChars, randomHex, randomUuid } from './random-ids';

describe('random ids', () => {
  it('draws only from the alphabet, at the asked length, and never repeats in practice', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const s = randomChars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 30);
      expect(s).toMatch(/^[A-Z0-9]{30}$/);
      seen.add(s);
    }
    expect(seen.size).toBe(20_000);
    expect(randomHex(12)).toMatch(/^[0-9a-f]{24}$/);
  });

  it('is uniform over a 36-character alphabet (no modulo bias: 256 is not a multiple of 36)', () => {
    const counts = new Map<string, number>();
    const draws = 360_000;
    for (const c of randomChars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', draws)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(36);
    // chi-square with 35 degrees of freedom passes 100 with p ≈ 1e-8 for a uniform source; with
    // `byte % 36` the first four characters come up 8/7 as often, which puts it near 870.
    const expected = draws / 36;
    const chi = [...counts.values()].reduce((a, o) => a + (o - expected) ** 2 / expected, 0);
    expect(chi).toBeLessThan(100);
  });

  it('refuses an alphabet it cannot draw from', () => {
    expect(() => randomChars('A', 3)).toThrow(RangeError);
  });

  it('makes version 4 UUIDs across many batches: the format, no repeats, every random nibble evenly spread', () => {
    const seen = new Set<string>();
    const counts = new Array<number>(16).fill(0);
    for (let i = 0; i < 12_800; i++) {
      const u = randomUuid();
      expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(u);
      for (const c of u.slice(0, 8)) counts[parseInt(c, 16)]++;
    }
    expect(seen.size).toBe(12_800);
    // 102 400 hex digits from the first group: chi-square with 15 degrees of freedom passes 50
    // with p ≈ 1e-5 for a uniform source
    const expected = (12_800 * 8) / 16;
    expect(counts.reduce((a, o) => a + (o - expected) ** 2 / expected, 0)).toBeLessThan(50);
  });
});
