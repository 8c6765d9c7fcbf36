import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DayPassedSignal } from '../../platform/clock/clock';
import { DatabaseState } from '../../platform/database/database.state';
import { SandboxAcquirerConfig } from './sandbox-acquirer.config';
import { SandboxBoletoService } from './sandbox-boleto.service';
import { SandboxNotifier } from './sandbox-notifier';
import { SandboxPixService } from './sandbox-pix.service';

/**
 * The acquirer's clockwork: Pix settlements and expiries, boleto expiries (all by the test
 * clock), and redelivery of notifications. Runs every SANDBOX_ACQUIRER_TICK_MS and for each day
 * the test clock advances. Rows are claimed with SKIP LOCKED, so replicas share the work.
 */
@Injectable()
export class SandboxAcquirerTicker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SandboxAcquirer');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly config: SandboxAcquirerConfig,
    private readonly db: DatabaseState,
    private readonly days: DayPassedSignal,
    private readonly pix: SandboxPixService,
    private readonly boletos: SandboxBoletoService,
    private readonly notifier: SandboxNotifier,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.days.subscribe('sandbox-acquirer', () => this.runOnce(), 50);
    this.db.onReady(() => {
      if (this.stopped) return;
      this.timer = setInterval(() => void this.tick(), this.config.tickMs);
      this.timer.unref();
    });
  }

  private tick(): Promise<void> {
    if (this.running || this.stopped) return this.running ?? Promise.resolve();
    this.running = this.runOnce()
      .catch((e) => this.logger.warn({ err: e?.message }, 'sandbox acquirer tick failed'))
      .finally(() => (this.running = null));
    return this.running;
  }

  /** One pass: settle and expire what is due by the test clock, then redeliver notifications. */
  async runOnce(): Promise<void> {
    for (const job of [() => this.pix.settleDue(), () => this.pix.expireDue(), () => this.boletos.expireDue()]) {
      for (let i = 0; i < 100 && (await job()) > 0; i++);
    }
    await this.notifier.deliverDue();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
