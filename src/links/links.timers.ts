import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DayPassedSignal } from '../../kernel/platform/clock/clock';
import { withAdvisoryLock } from '../../kernel/platform/database/advisory-lock';
import { PeriodicJobs } from '../../kernel/platform/jobs/periodic-jobs';
import { AcquirerEvents } from '../provider/acquirer/acquirer-events';
import { LinksConfig } from './links.config';
import { LinkLifecycle } from './links/link-lifecycle';
import { PaymentLedger } from './payments/payment-ledger';
import { LinksHousekeeping } from './payments/links-housekeeping';

/** Advisory lock key of the link-expiry job (one runner at a time across replicas). */
const EXPIRY_LOCK = 0x6c696e6b; // "link"

/** The acquirer's Pix and boleto notifications, applied to payment items. */
@Injectable()
export class AcquirerEventsSubscriber implements OnModuleInit {
  constructor(
    private readonly acquirerEvents: AcquirerEvents,
    private readonly ledger: PaymentLedger,
  ) {}

  onModuleInit(): void {
    this.acquirerEvents.subscribe('links', async (e) => {
      if (e.type !== 'pix_charge.updated' && e.type !== 'boleto.updated') return false;
      return this.ledger.applyReported(e.data.transactionId, e.data.status);
    });
  }
}

/**
 * Link expiry at expiresAt: a timer under pg_try_advisory_lock, and every day the test clock
 * advances; on the way, expired use holds are dropped and lost card attempts reconciled.
 */
@Injectable()
export class LinkExpiryJob implements OnApplicationBootstrap {
  constructor(
    private readonly ds: DataSource,
    private readonly config: LinksConfig,
    private readonly jobs: PeriodicJobs,
    private readonly days: DayPassedSignal,
    private readonly lifecycle: LinkLifecycle,
    private readonly housekeeping: LinksHousekeeping,
  ) {}

  onApplicationBootstrap(): void {
    this.days.subscribe('links-expiry', () => this.sweep(), 200);
    this.jobs.schedule({
      name: 'links-expiry',
      everyMs: this.config.tickMs,
      run: () => withAdvisoryLock(this.ds, EXPIRY_LOCK, { wait: false }, () => this.sweep()),
    });
  }

  /** Expires every due link (in batches), drops expired holds, reconciles lost card attempts. */
  async sweep(): Promise<void> {
    for (let i = 0; i < 100 && (await this.lifecycle.expireDue()) > 0; i++);
    await this.housekeeping.run();
  }
}
