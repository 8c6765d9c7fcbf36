import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock/clock';
import { DatabaseState } from '../../platform/database/database.state';
import { CardAuthorizer } from './card-authorizer';
import { CardPaymentsRepository } from './card-payments.repository';

/** pg advisory lock key of the recovery run (one replica at a time). */
const LOCK_KEY = 7_263_500_001;
const STUCK_AFTER_MS = 2 * 60 * 1000;
const EVERY_MS = 60 * 1000;

/**
 * A payment left PROCESSING (the process died between the insert and the acquirer's answer) is
 * reconciled with the acquirer by its transaction id: the acquirer's result is recorded with its
 * webhook, or FAILED when the acquirer never got it. Runs on one replica at a time (advisory
 * lock); the card is never re-sent.
 */
@Injectable()
export class CardPaymentRecovery implements OnApplicationShutdown {
  private readonly logger = new Logger('CardPayments');
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ds: DataSource,
    private readonly payments: CardPaymentsRepository,
    private readonly authorizer: CardAuthorizer,
    private readonly clock: Clock,
    db: DatabaseState,
  ) {
    db.onReady(() => {
      this.timer = setInterval(() => void this.runOnce().catch(() => undefined), EVERY_MS);
      this.timer.unref();
    });
  }

  /** One recovery run; answers how many payments it finished. */
  async runOnce(limit = 20): Promise<number> {
    const qr = this.ds.createQueryRunner();
    await qr.connect();
    try {
      const [{ locked }] = await qr.query(`SELECT pg_try_advisory_lock($1) AS locked`, [LOCK_KEY]);
      if (!locked) return 0;
      try {
        const stuck = await this.payments.lockStuck(this.ds, new Date(this.clock.now().getTime() - STUCK_AFTER_MS), limit);
        let done = 0;
        for (const p of stuck) {
          const after = await this.authorizer.reconcile(p);
          if (after.status !== 'PROCESSING') done++;
        }
        if (done) this.logger.log({ done }, 'recovered card payments left PROCESSING');
        return done;
      } finally {
        await qr.query(`SELECT pg_advisory_unlock($1)`, [LOCK_KEY]);
      }
    } finally {
      await qr.release();
    }
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
