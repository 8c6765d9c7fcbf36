import { LoggerService } from '@nestjs/common';
import CircuitBreaker from 'opossum';
import { BreakerRegistry } from '../../../kernel/platform/resilience/breaker-registry';
import { ClaimedDelivery } from '../outbox/outbox.store';
import { WebhooksConfig } from '../webhooks.config';
import { HttpOutcome } from './attempt-outcome';
import { HttpTransport, isShutdownAbort, PostRequest } from './http-transport';

/** A failure the host's breaker counts (network error, timeout, 5xx); carries what happened. */
class CountedFailure extends Error {
  constructor(readonly outcome: HttpOutcome) {
    super(outcome.kind === 'error' ? outcome.error : `http_${outcome.statusCode}`);
  }
}

/** One destination `host:port`: its queue of claimed rows, its sends in flight and its breaker. */
export class HostLane {
  readonly queue: { row: ClaimedDelivery; claimedAt: number }[] = [];
  readonly endpoints = new Set<string>();
  inFlight = 0;
  openedAt = 0;

  constructor(
    readonly host: string,
    private readonly breaker: CircuitBreaker<[PostRequest], HttpOutcome>,
    private readonly resetMs: number,
    private readonly timeoutMs: number,
  ) {}

  /** Open, or half-open with its single probe already out: nothing else may go now. */
  breakerBlocked(): boolean {
    return this.breaker.opened || (this.breaker.halfOpen && !this.breaker.pendingClose);
  }

  /** How long until this host may be tried again. */
  msUntilProbe(): number {
    if (this.breaker.opened) return Math.max(this.openedAt + this.resetMs - Date.now(), 0) + 10;
    return Math.min(this.resetMs, 1000);
  }

  /** One send through the breaker; `'open'` when the breaker refused it without sending. */
  async fire(req: PostRequest): Promise<HttpOutcome | 'open'> {
    try {
      return await this.breaker.fire(req);
    } catch (e: any) {
      if (e?.code === 'EOPENBREAKER') return 'open';
      if (e instanceof CountedFailure) return e.outcome;
      if (e?.code === 'ETIMEDOUT')
        return { kind: 'error', error: `timeout after ${this.timeoutMs} ms`, refused: false, latencyMs: this.timeoutMs };
      throw e;
    }
  }
}

/** Every host the worker has sent to, with the keep-alive transport they share. */
export class HostLanes {
  readonly transport: HttpTransport;
  private readonly lanes = new Map<string, HostLane>();
  private readonly byEndpoint = new Map<string, HostLane>();
  private readonly withQueue = new Set<HostLane>();

  constructor(
    private readonly breakers: BreakerRegistry,
    private readonly config: WebhooksConfig,
    private readonly logger: LoggerService,
  ) {
    this.transport = new HttpTransport({
      allowPrivateTargets: config.allowPrivateTargets,
      maxSocketsPerHost: config.maxInFlightPerHost,
      userAgent: 'payments-platform-webhooks/1.0',
    });
  }

  /** The lane of a claimed row (created on first use); marks it as having queued work. */
  lane(url: string, endpointId: string): HostLane {
    const host = hostKey(url);
    let lane = this.lanes.get(host);
    if (!lane) {
      lane = this.create(host);
      this.lanes.set(host, lane);
    }
    const before = this.byEndpoint.get(endpointId);
    if (before !== lane) {
      before?.endpoints.delete(endpointId);
      lane.endpoints.add(endpointId);
      this.byEndpoint.set(endpointId, lane);
    }
    this.withQueue.add(lane);
    return lane;
  }

  all(): Iterable<HostLane> {
    return this.lanes.values();
  }

  /** Lanes with queued rows (in a stable order, so the pump takes one from each in turn). */
  waiting(): HostLane[] {
    const out: HostLane[] = [];
    for (const lane of this.withQueue) {
      if (lane.queue.length) out.push(lane);
      else this.withQueue.delete(lane);
    }
    return out;
  }

  /**
   * Queued rows that could start as soon as a global slot frees: a host's queue counts only up
   * to the sends it may still add. Rows waiting behind a saturated (slow) host do not count, so
   * they never keep the worker from claiming other receivers' rows.
   */
  startableQueued(maxPerHost: number): number {
    let n = 0;
    for (const lane of this.withQueue) n += Math.min(lane.queue.length, Math.max(0, maxPerHost - lane.inFlight));
    return n;
  }

  /** For the claim: endpoints whose host already holds rows may take only what the host window has left. */
  endpointCaps(hostWindow: number): Map<string, number> {
    const caps = new Map<string, number>();
    for (const lane of this.lanes.values()) {
      const held = lane.inFlight + lane.queue.length;
      const blocked = lane.breakerBlocked();
      if (held <= 0 && !blocked) continue;
      const left = blocked ? 0 : Math.max(0, hostWindow - held);
      for (const ep of lane.endpoints) caps.set(ep, left);
    }
    return caps;
  }

  private create(host: string): HostLane {
    const breaker = this.breakers.get<[PostRequest], HttpOutcome>(
      `webhook:${host}`,
      async (req: PostRequest) => {
        const o = await this.transport.post(req);
        if (o.kind === 'error' && !o.refused && !isShutdownAbort(o)) throw new CountedFailure(o);
        if (o.kind === 'response' && o.statusCode >= 500) throw new CountedFailure(o);
        return o;
      },
      {
        // Our own timeout fires first and is the one recorded; the breaker's is a backstop.
        timeoutMs: this.config.timeoutMs + 1000,
        resetTimeoutMs: this.config.breakerResetMs,
        volumeThreshold: this.config.breakerVolumeThreshold,
        errorThresholdPercentage: 50,
        critical: false,
        dependency: 'webhooks',
      },
    );
    const lane = new HostLane(host, breaker, this.config.breakerResetMs, this.config.timeoutMs);
    breaker.on('open', () => {
      lane.openedAt = Date.now();
      this.logger.warn(`webhook receiver ${host} is failing: circuit open for ${this.config.breakerResetMs} ms`);
    });
    breaker.on('close', () => this.logger.log(`webhook receiver ${host} answers again: circuit closed`));
    return lane;
  }
}

/** The breaker's (and the socket pool's) unit: `host:port`. */
export function hostKey(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  } catch {
    return 'invalid';
  }
}
