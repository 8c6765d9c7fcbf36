import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { activeTracer, startTracing, stopTracing } from './tracing';
import { TracingConfig } from './tracing.config';

/**
 * Owns the OpenTelemetry SDK for one application: started when the app is built (before any
 * request or job pass), shut down last when it closes, so the spans of the final job passes and
 * requests are exported before the process goes.
 */
@Injectable()
export class Tracing implements OnApplicationShutdown {
  private readonly owner: boolean;

  constructor(config: TracingConfig) {
    this.owner = startTracing(config);
  }

  /** Whether spans are being made in this process. */
  get enabled(): boolean {
    return activeTracer() !== null;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.owner) await stopTracing();
  }
}
