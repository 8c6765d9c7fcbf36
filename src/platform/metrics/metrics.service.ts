import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** The service's Prometheus registry; modules add their own metrics to it. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Label children by "method route status": prom-client hashes a label object on every call otherwise. */
  private readonly children = new Map<string, { count: { inc(): void }; duration: { observe(v: number): void } }>();

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let c = this.children.get(key);
    if (!c) {
      const labels = { method, route, status: String(status) };
      c = { count: this.httpRequests.labels(labels), duration: this.httpDuration.labels(labels) };
      // routes are templates, so the key space is small; unmatched paths share 'unmatched'
      if (this.children.size < 10_000) this.children.set(key, c);
    }
    c.count.inc();
    c.duration.observe(seconds);
  }
}
