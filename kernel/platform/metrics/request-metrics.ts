/**
 * The two per-request metrics (`http_requests_total`, `http_request_duration_seconds`) kept in
 * plain arrays, one series per (method, route template, status), and handed to prom-client's
 * registry as metric objects it formats at scrape time. prom-client's own Counter/Histogram
 * hash a label object on every observation, which the request path pays for millions of times
 * and the scrape once.
 */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** per bucket, not cumulative (made cumulative when scraped) */
  buckets: number[];
}

/** The shape prom-client's Registry reads from a registered metric. */
export interface RegistryMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: string;
    values: { value: number; labels: Record<string, string | number>; metricName?: string }[];
  }>;
  reset(): void;
}

/** Bounds the number of series (routes are templates, so the real number is small). */
const MAX_SERIES = 10_000;

export class RequestMetrics {
  /** in the order first seen (the scrape order) */
  private readonly series: Series[] = [];
  /**
   * route → method → status: the lookup of an observation. The route template and the method
   * are the same few strings on every request, so these keys hash once; a joined key string
   * would be built and hashed on every request.
   */
  private readonly index = new Map<string, Map<string, Map<number, Series>>>();

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.index.get(route);
    if (!byMethod) this.index.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (!s) {
      if (this.series.length >= MAX_SERIES) return;
      s = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Array(DURATION_BUCKETS.length).fill(0) };
      byStatus.set(status, s);
      this.series.push(s);
    }
    s.count++;
    s.sum += seconds;
    for (let i = 0; i < DURATION_BUCKETS.length; i++) {
      if (seconds <= DURATION_BUCKETS[i]) {
        s.buckets[i]++;
        break;
      }
    }
  }

  private clear(): void {
    this.series.length = 0;
    this.index.clear();
  }

  counter(): RegistryMetric {
    const name = 'http_requests_total';
    const help = 'HTTP requests by method, route template and status';
    return {
      name,
      help,
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({
        name,
        help,
        type: 'counter',
        aggregator: 'sum',
        values: this.series.map((s) => ({ value: s.count, labels: { ...s.labels } })),
      }),
      reset: () => this.clear(),
    };
  }

  histogram(): RegistryMetric {
    const name = 'http_request_duration_seconds';
    const help = 'HTTP request duration by method, route template and status';
    return {
      name,
      help,
      type: 'histogram',
      aggregator: 'sum',
      get: async () => {
        const values: { value: number; labels: Record<string, string | number>; metricName?: string }[] = [];
        for (const s of this.series) {
          let cumulative = 0;
          DURATION_BUCKETS.forEach((le, i) => {
            cumulative += s.buckets[i];
            values.push({ value: cumulative, labels: { le, ...s.labels }, metricName: `${name}_bucket` });
          });
          values.push({ value: s.count, labels: { le: '+Inf', ...s.labels }, metricName: `${name}_bucket` });
          values.push({ value: s.sum, labels: { ...s.labels }, metricName: `${name}_sum` });
          values.push({ value: s.count, labels: { ...s.labels }, metricName: `${name}_count` });
        }
        return { name, help, type: 'histogram', aggregator: 'sum', values };
      },
      reset: () => this.clear(),
    };
  }
}
