/** Fixed-window counters kept in this process (no REDIS_URL, or Redis unreachable). */
export class MemoryCounterStore {
  private readonly counters = new Map<string, { w: number; n: number }>();
  private sweptWindow = 0;

  incr(key: string, window: number): number {
    if (window !== this.sweptWindow) this.sweep(window);
    const e = this.counters.get(key);
    if (e && e.w === window) return ++e.n;
    this.counters.set(key, { w: window, n: 1 });
    return 1;
  }

  /** Drops counters of past windows (once per window, O(entries)). */
  private sweep(window: number): void {
    this.sweptWindow = window;
    for (const [k, e] of this.counters) if (e.w < window) this.counters.delete(k);
  }
}
