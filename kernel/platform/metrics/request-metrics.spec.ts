import { Counter, Histogram, Registry } from 'prom-client';
import { DURATION_BUCKETS, RequestMetrics } from './request-metrics';

/** prom-client's own Counter and Histogram are the oracle: the scrape text must be the same. */
function oracle() {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const counter = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames,
    registers: [registry],
  });
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    registry,
    observe(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) };
      counter.inc(labels);
      histogram.observe(labels, seconds);
    },
  };
}

function ours() {
  const registry = new Registry();
  const m = new RequestMetrics();
  registry.registerMetric(m.counter() as never);
  registry.registerMetric(m.histogram() as never);
  return { registry, observe: m.observe.bind(m) };
}

const lines = async (r: Registry) => (await r.metrics()).split('\n').filter(Boolean).sort();

describe('request metrics', () => {
  it('scrape exactly as prom-client would, over many requests, routes and statuses, including bucket edges and > 10 s', async () => {
    const a = oracle();
    const b = ours();
    const routes = ['/v1/banking/accounts/:accountId/limits', '/health/live', 'unmatched', '/v1/acquiring/links/:linkId'];
    const durations = [0, 0.0004, 0.001, 0.0010001, 0.0025, 0.003, 0.05, 0.7, 1, 2.5, 9.99, 10, 10.5, 42];
    let n = 0;
    for (const route of routes) {
      for (const status of [200, 404, 429, 500]) {
        for (const method of ['GET', 'POST']) {
          for (let i = 0; i < 3; i++) {
            const s = durations[n++ % durations.length];
            a.observe(method, route, status, s);
            b.observe(method, route, status, s);
          }
        }
      }
    }
    expect(await lines(b.registry)).toEqual(await lines(a.registry));
    expect(await b.registry.metrics()).toContain('http_requests_total{method="GET",route="/health/live",status="200"} 3');
  });

  it('scrapes nothing but the headers before the first request, and counts again after a reset', async () => {
    const b = ours();
    expect(await lines(b.registry)).toEqual(await lines(oracle().registry));
    b.observe('GET', '/x', 200, 0.01);
    b.registry.resetMetrics();
    b.observe('GET', '/x', 200, 0.01);
    expect(await b.registry.metrics()).toContain('http_requests_total{method="GET",route="/x",status="200"} 1');
  });
});
