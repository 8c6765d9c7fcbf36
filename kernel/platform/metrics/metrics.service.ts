import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { RequestMetrics } from './request-metrics';

/** The service's Prometheus registry; modules add their own metrics to it. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly requests = new RequestMetrics();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.requests.counter() as never);
    this.registry.registerMetric(this.requests.histogram() as never);
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }
}
