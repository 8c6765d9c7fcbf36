import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DayPassedSignal } from '../../../kernel/platform/clock/clock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
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
export class SandboxAcquirerTicker implements OnApplicationBootstrap {
  constructor(
    private readonly config: SandboxAcquirerConfig,
    private readonly jobs: PeriodicJobs,
    private readonly days: DayPassedSignal,
    private readonly pix: SandboxPixService,
    private readonly boletos: SandboxBoletoService,
    private readonly notifier: SandboxNotifier,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.days.subscribe('sandbox-acquirer', () => this.runOnce(), 50);
    this.jobs.schedule({ name: 'sandbox-acquirer', everyMs: this.config.tickMs, run: () => this.runOnce() });
  }

  /** One pass: settle and expire what is due by the test clock, then redeliver notifications. */
  async runOnce(): Promise<void> {
    for (const job of [() => this.pix.settleDue(), () => this.pix.expireDue(), () => this.boletos.expireDue()]) {
      for (let i = 0; i < 100 && (await job()) > 0; i++);
    }
    await this.notifier.deliverDue();
  }
}
