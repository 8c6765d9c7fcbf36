import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { Clock } from '../../../kernel/platform/clock/clock';
import { DatabaseState } from '../../../kernel/platform/database/database.state';
import { HealthRegistry } from '../../../kernel/platform/health/health-registry';
import { MetricsService } from '../../../kernel/platform/metrics/metrics.service';
import { OutboxStore } from '../outbox/outbox.store';
import { WebhooksConfig } from '../webhooks.config';

export type DeliveryMetricOutcome = 'delivered' | 'failed' | 'dead' | 'gone' | 'refused' | 'deferred';

/**
 * `/metrics`: `webhook_deliveries_total{outcome}`, `webhook_delivery_duration_seconds`,
 * `webhook_outbox_lag_seconds` (age of the oldest due row, read at scrape time).
 * `/health/ready`: `webhookOutbox` with `lagMs`; `degraded` (still 200) beyond WEBHOOK_LAG_DEGRADED_MS.
 */
@Injectable()
export class WebhookTelemetry {
  private readonly deliveries: Counter<'outcome'>;
  private readonly duration: Histogram<'outcome'>;
  workerState: () => Record<string, unknown> = () => ({ worker: 'not started' });

  constructor(
    metrics: MetricsService,
    health: HealthRegistry,
    store: OutboxStore,
    clock: Clock,
    db: DatabaseState,
    config: WebhooksConfig,
  ) {
    this.deliveries = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (delivered, failed, dead, gone, refused) and deferrals (deferred)',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    this.duration = new Histogram({
      name: 'webhook_delivery_duration_seconds',
      help: 'Webhook delivery attempt latency by outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metrics.registry],
    });
    const lag = new Gauge({
      name: 'webhook_outbox_lag_seconds',
      help: 'Age of the oldest due webhook delivery (0 when none is due)',
      registers: [metrics.registry],
      async collect() {
        if (!db.isReady()) return;
        try {
          this.set((await store.lagMs(clock.now())) / 1000);
        } catch {
          /* the database check reports outages */
        }
      },
    });
    void lag;
    health.add({
      name: 'webhookOutbox',
      dependency: 'webhooks',
      check: async () => {
        if (!db.isReady()) return { status: 'down', error: 'database not ready' };
        const lagMs = await store.lagMs(clock.now());
        return { status: lagMs > config.lagDegradedMs ? 'degraded' : 'up', lagMs, ...this.workerState() };
      },
    });
  }

  count(outcome: DeliveryMetricOutcome, latencyMs?: number): void {
    this.deliveries.inc({ outcome });
    if (latencyMs !== undefined) this.duration.observe({ outcome }, latencyMs / 1000);
  }
}
