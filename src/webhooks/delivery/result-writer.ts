import { LoggerService } from '@nestjs/common';
import { Clock } from '../../../kernel/platform/clock/clock';
import { DeliveryResult, OutboxStore } from '../outbox/outbox.store';

const TRIES = 5;
const WRITERS = 2;

/**
 * Writes delivery results as they pile up, one statement per batch: while a batch is being
 * written the next one gathers, so under load each statement carries many rows. A second write
 * may run beside it when a full batch is waiting (they touch different rows). A failed write is retried a few times; after that
 * the rows come back on their own when their lease ends (and are sent again: at least once).
 */
export class ResultWriter {
  private results: DeliveryResult[] = [];
  private goneList: { endpointId: string; url: string }[] = [];
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly store: OutboxStore,
    private readonly clock: Clock,
    private readonly logger: LoggerService,
    private readonly secondWriterAt: number,
  ) {}

  add(r: DeliveryResult): void {
    this.results.push(r);
    this.kick();
  }

  /** The receiver answered 410: disable its endpoint (in the same write as the attempt, after it). */
  gone(endpointId: string, url: string): void {
    if (!this.goneList.some((g) => g.endpointId === endpointId && g.url === url)) this.goneList.push({ endpointId, url });
  }

  /** Resolves once everything added so far is written (or given up). */
  async drain(): Promise<void> {
    this.kick();
    while (this.writing.size) await Promise.allSettled([...this.writing]);
  }

  private kick(): void {
    // A second write starts only for a large backlog: small batches cost more per row.
    while (
      (this.results.length || this.goneList.length) &&
      (this.writing.size === 0 || (this.writing.size < WRITERS && this.results.length >= this.secondWriterAt))
    ) {
      const batch = this.results;
      const gone = this.goneList;
      this.results = [];
      this.goneList = [];
      const p: Promise<void> = this.write(batch, gone).finally(() => {
        this.writing.delete(p);
        this.kick();
      });
      this.writing.add(p);
    }
  }

  private async write(batch: DeliveryResult[], gone: { endpointId: string; url: string }[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (batch.length) {
          await this.store.record(batch);
          batch = [];
        }
        if (gone.length) {
          for (const id of await this.store.disableGone(gone, this.clock.now())) {
            this.logger.warn(`webhook endpoint ${id} answered 410 Gone: disabled, its pending deliveries cancelled`);
          }
        }
        return;
      } catch (e: any) {
        if (attempt >= TRIES) {
          this.logger.error(
            `could not record ${batch.length} webhook results (${e?.message ?? e}); those rows are sent again when their lease ends`,
          );
          return;
        }
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }
}
