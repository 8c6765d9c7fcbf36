import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DayPassedSignal } from '../../../kernel/platform/clock/clock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { SandboxAcquirerConfig } from './sandbox-acquirer.config';
import { SandboxDisputes } from './sandbox-disputes.service';
import { SandboxRefunds } from './sandbox-refunds.service';

/**
 * The clockwork of refunds and disputes: on every tick of the sandbox acquirer
 * (SANDBOX_ACQUIRER_TICK_MS) and for each day the test clock advances, every refund and dispute
 * with a step still to play plays exactly one. Rows are claimed with SKIP LOCKED, so replicas
 * share the work.
 */
@Injectable()
export class SandboxCardCasesTicker implements OnApplicationBootstrap {
  constructor(
    private readonly config: SandboxAcquirerConfig,
    private readonly jobs: PeriodicJobs,
    private readonly days: DayPassedSignal,
    private readonly refunds: SandboxRefunds,
    private readonly disputes: SandboxDisputes,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.days.subscribe('sandbox-acquirer-cases', () => this.runOnce(), 50);
    this.jobs.schedule({ name: 'sandbox-acquirer-cases', everyMs: this.config.tickMs, run: () => this.runOnce() });
  }

  /** One tick: one step of each refund, one stage of each dispute. */
  async runOnce(): Promise<void> {
    await this.refunds.stepDue();
    await this.disputes.stepDue();
  }
}
