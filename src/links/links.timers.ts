import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DayPassedSignal } from '../platform/clock/clock';
import { DatabaseState } from '../platform/database/database.state';
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
export class LinkExpiryJob implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Links');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly ds: DataSource,
    private readonly config: LinksConfig,
    private readonly db: DatabaseState,
    private readonly days: DayPassedSignal,
    private readonly lifecycle: LinkLifecycle,
    private readonly housekeeping: LinksHousekeeping,
  ) {}

  onApplicationBootstrap(): void {
    this.days.subscribe('links-expiry', () => this.sweep(), 200);
    this.db.onReady(() => {
      if (this.stopped) return;
      this.timer = setInterval(() => void this.tick(), this.config.tickMs);
      this.timer.unref();
    });
  }

  private tick(): Promise<void> {
    if (this.running || this.stopped) return Promise.resolve();
    this.running = this.locked(() => this.sweep())
      .catch((e) => this.logger.warn({ err: e?.message }, 'link expiry pass failed'))
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Expires every due link (in batches), drops expired holds, reconciles lost card attempts. */
  async sweep(): Promise<void> {
    for (let i = 0; i < 100 && (await this.lifecycle.expireDue()) > 0; i++);
    await this.housekeeping.run();
  }

  private async locked(fn: () => Promise<void>): Promise<void> {
    const qr = this.ds.createQueryRunner();
    await qr.connect();
    try {
      const got = (await qr.query(`SELECT pg_try_advisory_lock($1) AS ok`, [EXPIRY_LOCK]))[0].ok;
      if (!got) return;
      try {
        await fn();
      } finally {
        await qr.query(`SELECT pg_advisory_unlock($1)`, [EXPIRY_LOCK]);
      }
    } finally {
      await qr.release();
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
