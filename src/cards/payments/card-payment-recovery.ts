import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { withAdvisoryLock } from '../../../kernel/platform/database/advisory-lock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
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
export class CardPaymentRecovery {
  private readonly logger = new Logger('CardPayments');

  constructor(
    private readonly ds: DataSource,
    private readonly payments: CardPaymentsRepository,
    private readonly authorizer: CardAuthorizer,
    private readonly clock: Clock,
    jobs: PeriodicJobs,
  ) {
    jobs.schedule({ name: 'card-payment-recovery', everyMs: EVERY_MS, run: () => this.runOnce() });
  }

  /** One recovery run; answers how many payments it finished. */
  async runOnce(limit = 20): Promise<number> {
    const done = await withAdvisoryLock(this.ds, LOCK_KEY, { wait: false }, async () => {
      const stuck = await this.payments.lockStuck(this.ds, new Date(this.clock.now().getTime() - STUCK_AFTER_MS), limit);
      let finished = 0;
      for (const p of stuck) {
        const after = await this.authorizer.reconcile(p);
        if (after.status !== 'PROCESSING') finished++;
      }
      return finished;
    });
    if (done) this.logger.log({ done }, 'recovered card payments left PROCESSING');
    return done ?? 0;
  }
}
