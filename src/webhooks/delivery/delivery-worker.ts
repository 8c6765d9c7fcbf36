import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../../kernel/platform/clock/clock';
import { DatabaseState } from '../../../kernel/platform/database/database.state';
import { BreakerRegistry } from '../../../kernel/platform/resilience/breaker-registry';
import { ClaimedDelivery, DeliveryResult, OutboxStore } from '../outbox/outbox.store';
import { WebhooksConfig } from '../webhooks.config';
import { classifyAttempt, HttpOutcome } from './attempt-outcome';
import { HostLane, HostLanes } from './host-lanes';
import { isShutdownAbort } from './http-transport';
import { PayloadBuilder } from './payload-builder';
import { ResultWriter } from './result-writer';
import { DeliveryMetricOutcome, WebhookTelemetry } from './webhook-telemetry';

interface Queued {
  row: ClaimedDelivery;
  claimedAt: number;
}

/**
 * The delivery worker: one loop per process, started when the database is ready, stopped on
 * shutdown.
 *
 * - It claims due rows in batches (FOR UPDATE SKIP LOCKED, see OutboxStore.claim) while it
 *   holds fewer than `concurrency + batchSize` rows, so one batch waits while another is sent.
 * - Claimed rows wait in a queue per destination host (`host:port`). At most `concurrency`
 *   sends run at once, at most `maxInFlightPerHost` to one host, taken from the host queues in
 *   turn: a slow receiver holds its own share of slots, never all of them. A row that could not
 *   start within half the lease margin is handed back untried (the lease stays safe).
 * - Each send goes through the host's opossum breaker: while it is open the host's rows are
 *   handed back (deferred) without using an attempt; a half-open probe resumes the host.
 * - Results are written in batches, one statement per batch (ResultWriter).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly lanes: HostLanes;
  private readonly payloads: PayloadBuilder;
  private readonly writer: ResultWriter;
  private readonly window: number;
  private readonly hostWindow: number;
  private readonly wakeAfter: number;
  private readonly queueDeadlineMs: number;
  private running = false;
  private stopping = false;
  private loopDone: Promise<void> | null = null;
  private inFlight = 0;
  private queued = 0;
  private freedSinceClaim = 0;
  private readonly sends = new Set<Promise<void>>();
  private wakeUp: (() => void) | null = null;
  private lastClaimWarning = 0;

  constructor(
    private readonly store: OutboxStore,
    breakers: BreakerRegistry,
    private readonly config: WebhooksConfig,
    private readonly clock: Clock,
    private readonly db: DatabaseState,
    private readonly telemetry: WebhookTelemetry,
  ) {
    this.lanes = new HostLanes(breakers, config, this.logger);
    this.payloads = new PayloadBuilder(config.secretKeys);
    this.writer = new ResultWriter(store, clock, this.logger, config.batchSize);
    this.window = config.concurrency + config.batchSize;
    this.hostWindow = config.maxInFlightPerHost + config.batchSize;
    this.wakeAfter = Math.max(1, Math.ceil(Math.min(config.batchSize, this.hostWindow) / 2));
    this.queueDeadlineMs = Math.max(50, Math.floor(config.leaseMarginMs / 2));
    telemetry.workerState = () => ({
      worker: this.running ? 'running' : config.workerEnabled ? 'stopped' : 'disabled',
      inFlight: this.inFlight,
      queued: this.queued,
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.workerEnabled) this.db.onReady(() => this.start());
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /** Starts the loop (idempotent). The app starts it on its own once the database is ready. */
  start(): void {
    if (this.running || this.stopping) return;
    this.running = true;
    this.loopDone = this.loop();
  }

  /**
   * Stops claiming, hands queued rows back, lets sends in flight finish for a moment, aborts
   * the rest (handed back too: due at once, for another replica), records every result and
   * closes the sockets.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.running = false;
    this.wake();
    await this.loopDone;
    for (const lane of this.lanes.all()) this.dropQueue(lane);
    if (this.sends.size) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...this.sends]),
        new Promise((r) => (timer = setTimeout(r, Math.min(this.config.timeoutMs, 3000)))),
      ]);
      clearTimeout(timer);
      this.lanes.transport.abortAll();
      await Promise.allSettled([...this.sends]);
    }
    await this.writer.drain();
    this.lanes.transport.close();
  }

  private async loop(): Promise<void> {
    const threshold = Math.max(1, Math.ceil(this.config.batchSize / 2));
    while (this.running) {
      const room = this.window - this.inFlight - this.lanes.startableQueued(this.config.maxInFlightPerHost);
      if (room < threshold) {
        await this.idle(this.config.pollIntervalMs);
        continue;
      }
      const limit = Math.min(room, this.config.batchSize);
      let rows: ClaimedDelivery[];
      try {
        const now = this.clock.now();
        const wallNow = new Date();
        this.freedSinceClaim = 0;
        rows = await this.store.claim({
          now,
          wallNow,
          leaseUntil: new Date(wallNow.getTime() + this.config.timeoutMs + this.config.leaseMarginMs),
          token: randomUUID(),
          limit,
          defaultPerEndpoint: this.hostWindow,
          perEndpoint: this.lanes.endpointCaps(this.hostWindow),
        });
      } catch (e: any) {
        if (Date.now() - this.lastClaimWarning > 30000) {
          this.lastClaimWarning = Date.now();
          this.logger.warn(`webhook claim failed: ${e?.message ?? e}; retrying every ${this.config.pollIntervalMs} ms`);
        }
        await this.idle(this.config.pollIntervalMs);
        continue;
      }
      const claimedAt = Date.now();
      for (const row of rows) {
        const lane = this.lanes.lane(row.url, row.endpointId);
        lane.queue.push({ row, claimedAt });
        this.queued++;
      }
      this.pump();
      if (rows.length < limit) await this.idle(this.config.pollIntervalMs);
    }
  }

  /** Starts queued rows while slots are free, one host at a time in turn. */
  private pump(): void {
    let progressed = true;
    while (progressed && this.inFlight < this.config.concurrency) {
      progressed = false;
      for (const lane of this.lanes.waiting()) {
        if (this.inFlight >= this.config.concurrency) break;
        if (lane.breakerBlocked()) {
          this.dropQueue(lane, lane.msUntilProbe());
          continue;
        }
        if (lane.inFlight >= this.config.maxInFlightPerHost) continue;
        const q = lane.queue.shift() as Queued;
        this.queued--;
        progressed = true;
        if (this.stopping || Date.now() - q.claimedAt > this.queueDeadlineMs) {
          this.handBack(q.row, null);
          continue;
        }
        this.send(q.row, lane);
      }
    }
  }

  private send(row: ClaimedDelivery, lane: HostLane): void {
    this.inFlight++;
    lane.inFlight++;
    const p: Promise<void> = this.deliver(row, lane)
      .then(
        (r) => this.writer.add(r),
        (e: any) => {
          this.logger.error(`webhook delivery ${row.id} failed unexpectedly: ${e?.message ?? e}`);
          this.writer.add({ kind: 'defer', id: row.id, token: row.token, until: new Date(this.clock.now().getTime() + 5000) });
        },
      )
      .finally(() => {
        this.inFlight--;
        lane.inFlight--;
        this.sends.delete(p);
        this.pump();
        if (++this.freedSinceClaim >= this.wakeAfter || this.inFlight + this.queued === 0) this.wake();
      });
    this.sends.add(p);
  }

  private async deliver(row: ClaimedDelivery, lane: HostLane): Promise<DeliveryResult> {
    let http: HttpOutcome;
    try {
      const { body, headers } = this.payloads.build(row, this.clock.now(), Math.floor(Date.now() / 1000));
      const fired = await lane.fire({ url: row.url, headers, body, timeoutMs: this.config.timeoutMs });
      if (fired === 'open') return this.deferral(row, lane.msUntilProbe());
      http = fired;
    } catch (e: any) {
      // The stored secret does not open (WEBHOOK_SECRETS_KEY changed?): an attempt that failed on our side.
      http = { kind: 'error', error: `internal_error: ${e?.code ?? 'payload'}`, refused: false, latencyMs: 0 };
    }
    if (this.stopping && isShutdownAbort(http)) return this.deferral(row, null);
    const at = this.clock.now();
    const c = classifyAttempt(http, row.attempt, at);
    this.telemetry.count(metricOutcome(c.status, c.outcome), http.latencyMs);
    if (c.outcome === 'gone') this.writer.gone(row.endpointId, row.url);
    return {
      kind: 'attempt',
      id: row.id,
      token: row.token,
      endpointId: row.endpointId,
      status: c.status,
      nextAttemptAt: c.nextAttemptAt,
      attempt: row.attempt,
      url: row.url,
      outcome: c.outcome,
      statusCode: c.statusCode,
      latencyMs: http.latencyMs,
      error: c.error,
      responseSnippet: http.kind === 'response' ? http.snippet : null,
      at,
    };
  }

  /** Hands every queued row of a host back: due again after `ms` (null: keeps its place). */
  private dropQueue(lane: HostLane, ms: number | null = null): void {
    for (const q of lane.queue.splice(0)) {
      this.queued--;
      this.handBack(q.row, ms);
    }
  }

  private handBack(row: ClaimedDelivery, ms: number | null): void {
    this.writer.add(this.deferral(row, ms));
  }

  private deferral(row: ClaimedDelivery, ms: number | null): DeliveryResult {
    this.telemetry.count('deferred');
    return {
      kind: 'defer',
      id: row.id,
      token: row.token,
      until: ms === null ? null : new Date(this.clock.now().getTime() + Math.max(0, ms)),
    };
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private wake(): void {
    this.wakeUp?.();
  }
}

function metricOutcome(status: string, outcome: string): DeliveryMetricOutcome {
  if (status === 'DEAD') return 'dead';
  return outcome as DeliveryMetricOutcome;
}
