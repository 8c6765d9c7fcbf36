/**
 * A per-replica copy of values loaded from elsewhere (a database row, a provider's answer), each
 * reused for `ttlMs`. A fresh hit answers synchronously (the hot path awaits nothing);
 * concurrent misses for one key share one load; the copy is bounded (cleared when full).
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly loader: (key: string) => Promise<V>,
    private readonly opts: { ttlMs: number; maxEntries: number },
  ) {}

  /** The value if fresh, else the (shared) load of it. */
  get(key: string): V | Promise<V> {
    const e = this.entries.get(key);
    if (e && Date.now() - e.at < this.opts.ttlMs) return e.value;
    return this.load(key);
  }

  /** The kept value, fresh or not, and how old it is. */
  peek(key: string): { value: V; ageMs: number } | undefined {
    const e = this.entries.get(key);
    return e && { value: e.value, ageMs: Date.now() - e.at };
  }

  /** Replaces the kept value (this replica learned it first-hand). */
  set(key: string, value: V): void {
    if (this.entries.size >= this.opts.maxEntries) this.entries.clear();
    this.entries.set(key, { value, at: Date.now() });
  }

  private load(key: string): Promise<V> {
    const pending = this.loading.get(key);
    if (pending) return pending;
    const p = this.loader(key)
      .then((value) => {
        this.set(key, value);
        return value;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, p);
    return p;
  }
}
