import { Injectable, Logger } from '@nestjs/common';
import { BreakerRegistry } from '../../../kernel/platform/resilience/breaker-registry';
import { ProviderCallError, ResilientHttp } from '../../../kernel/platform/http/resilient-http';
import { PROVIDER_SIGNATURE_HEADER, signProviderEvent } from '../../../kernel/common/protocols/provider-events';
import { SandboxConfig } from '../sandbox.config';
import { BankEvent, chaos, seededRandom } from './bank-rules';
import { SandboxBankStore } from './sandbox-bank.store';

const BATCH = 500;
const MAX_BATCHES_PER_FLUSH = 1000;
const CONCURRENCY = 8;
const MAX_HOLDS = 5;
const HOLD_PROBABILITY = 0.3;

/** How many flushes chaos holds event `id` back (0 for most): fixed per event and seed. */
function holdsFor(id: string, seed: number): number {
  const r = seededRandom((seed ^ Number(id)) >>> 0);
  return r() < HOLD_PROBABILITY ? 1 + Math.floor(r() * MAX_HOLDS) : 0;
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

/** A pending row of the bank's outbox. */
export interface PendingBankEvent {
  id: string;
  payload: BankEvent;
  attempts: number;
}

/**
 * The sandbox PSP's face of the outbox: events about recurrences and billings created through API
 * Pix go out as its callbacks (`{webhookUrl}/rec`, `/cobr`) instead of `/provider/events`.
 */
export interface PspEventFace {
  /** The ids among `pending` this face delivers. */
  claim(pending: PendingBankEvent[]): Promise<Set<string>>;
  /** Delivers them; ids not in `delivered` are tried again on the next flush. */
  deliver(events: PendingBankEvent[]): Promise<{ delivered: string[] }>;
}

/**
 * The bank's outbox toward the service: events are stored with the state change that causes
 * them, then POSTed (HMAC-signed) to the service's `/provider/events`. Undelivered events stay
 * and go out on the next flush. With SANDBOX_CHAOS=true each flush duplicates and reorders them.
 */
@Injectable()
export class SandboxBankEvents {
  private readonly logger = new Logger('SandboxBankEvents');
  private client: ResilientHttp | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly random: () => number;
  private pspFace: PspEventFace | null = null;

  constructor(
    private readonly config: SandboxConfig,
    private readonly store: SandboxBankStore,
    private readonly breakers: BreakerRegistry,
  ) {
    this.random = seededRandom(config.chaosSeed);
  }

  private http(): ResilientHttp {
    this.client ??= new ResilientHttp(
      'sandboxBank',
      { baseUrl: this.config.serviceUrl, timeoutMs: 5000, retryDelaysMs: [], dependency: 'service' },
      this.breakers,
    );
    return this.client;
  }

  /** The sandbox PSP takes the events of its own entities (one bank state, two faces). */
  attachPspFace(face: PspEventFace): void {
    this.pspFace = face;
  }

  /** Delivers everything pending; concurrent calls queue behind each other. Never throws. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.deliverPending());
    this.flushing = run.catch(() => undefined);
    return run.catch((e) => this.logger.warn(`event delivery stopped: ${e?.message}`));
  }

  private async deliverPending(): Promise<void> {
    for (let i = 0; i < MAX_BATCHES_PER_FLUSH; i++) {
      const all = await this.store.undelivered(BATCH);
      if (!all.length) return;
      let pending = all;
      let pspFailed = 0;
      if (this.pspFace) {
        const mine = await this.pspFace.claim(all);
        if (mine.size) {
          const psp = all.filter((r) => mine.has(r.id));
          const { delivered } = await this.pspFace.deliver(psp);
          const done = new Set(delivered);
          await this.store.markDelivered(delivered);
          const failedIds = psp.filter((r) => !done.has(r.id)).map((r) => r.id);
          await this.store.countAttempt(failedIds);
          pspFailed = failedIds.length;
          pending = all.filter((r) => !mine.has(r.id));
        }
      }
      // In order per idTx, several idTx at a time. Chaos: one shuffled line with duplicates, and
      // some events held back for 1 to MAX_HOLDS flushes (they arrive after their successors).
      const held = new Set(
        this.config.chaos ? pending.filter((r) => r.attempts < holdsFor(r.id, this.config.chaosSeed)).map((r) => r.id) : [],
      );
      const lines = this.config.chaos
        ? [
            chaos(
              pending.filter((r) => !held.has(r.id)),
              this.random,
            ),
          ]
        : [...groupBy(pending, (r) => r.payload.idTx).values()];
      const delivered = new Set<string>();
      const failed = new Set<string>(held);
      const deliverLine = async (line: typeof pending) => {
        for (const row of line) {
          if (failed.has(row.id)) continue;
          if (await this.post(row.payload)) delivered.add(row.id);
          else failed.add(row.id);
        }
      };
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, lines.length) }, async () => {
          while (next < lines.length) await deliverLine(lines[next++]);
        }),
      );
      await this.store.markDelivered([...delivered].filter((id) => !failed.has(id)));
      await this.store.countAttempt([...failed]);
      if (failed.size || pspFailed) return; // the service is not taking events now (or chaos held some): next flush
      if (all.length < BATCH) return;
    }
  }

  /** true: delivered (or refused for good with a 4xx); false: retry later. */
  private async post(event: BankEvent): Promise<boolean> {
    const body = JSON.stringify(event);
    try {
      await this.http().call({
        operation: 'deliverEvent',
        method: 'POST',
        path: '/provider/events',
        body: event,
        headers: { [PROVIDER_SIGNATURE_HEADER]: signProviderEvent(this.config.eventsSecret, body) },
        idempotent: false,
      });
      return true;
    } catch (e) {
      if (e instanceof ProviderCallError && e.code === 'provider_rejected') {
        this.logger.warn(`the service refused event ${event.eventType} ${event.idTx}: ${e.status}`);
        return true;
      }
      return false;
    }
  }
}
