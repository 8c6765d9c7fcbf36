import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DayPassedSignal } from '../../../kernel/platform/clock/clock';
import { withAdvisoryLock } from '../../../kernel/platform/database/advisory-lock';
import { PeriodicJob, PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import { PixApiChargesPastTime } from './pix-api-charges-past-time';
import { PixApiCobConfig } from './pix-api-cob.config';
import { PixApiReceivedPix } from './pix-api-received-pix';

/** Advisory lock of the pass over charges past their time (one replica at a time). */
const CHECK_LOCK = 0x70697863; // "pixc"

/**
 * The received-Pix job (BANK_PROVIDER=pix-api): every PIX_API_CHARGES_CHECK_MS, on each test-clock day
 * and at once after a callback, it applies the received Pix that are due (leased, so replicas
 * share them), then checks the charges past their time under an advisory lock, then applies what
 * that found.
 */
@Injectable()
export class PixApiReceivedPixWorker implements OnApplicationBootstrap {
  private job: PeriodicJob | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly config: PixApiCobConfig,
    private readonly jobs: PeriodicJobs,
    private readonly days: DayPassedSignal,
    private readonly received: PixApiReceivedPix,
    private readonly pastTime: PixApiChargesPastTime,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.job = this.jobs.schedule({ name: 'pix-api-received-pix', everyMs: this.config.checkMs, run: () => this.runOnce() });
    this.days.subscribe('pix-api-charges', () => this.runOnce(), 150);
  }

  /** Records the endToEndIds of a callback and has them applied soon. */
  async accept(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.received.record(ids);
    this.job?.kick();
  }

  async runOnce(): Promise<void> {
    for (let i = 0; i < 100 && (await this.received.applyDue()) > 0; i++);
    await withAdvisoryLock(this.ds, CHECK_LOCK, { wait: false }, () => this.pastTime.check());
    await this.received.applyDue();
  }
}
