import { Injectable, Logger } from '@nestjs/common';
import { CardCharges } from '../../provider/acquirer/card-charges';
import { LinkLifecycle } from '../links/link-lifecycle';
import { PaymentLedger } from './payment-ledger';
import { PaymentsRepository } from './payments.repository';

const LEASE_SECONDS = 60;

/**
 * Card attempts whose answer was never recorded (the process died during the authorization):
 * the acquirer is asked what it did with our transaction id; an authorization it made becomes
 * the item it should have been (money taken is never left unrecorded), none means the attempt
 * never reached it and the held use is given back. Also drops expired use holds.
 */
@Injectable()
export class LinksHousekeeping {
  private readonly logger = new Logger('Links');

  constructor(
    private readonly payments: PaymentsRepository,
    private readonly ledger: PaymentLedger,
    private readonly charges: CardCharges,
    private readonly lifecycle: LinkLifecycle,
  ) {}

  async run(limit = 20): Promise<number> {
    await this.payments.dropExpiredHolds(this.lifecycle.now());
    const pending = await this.payments.claimPendingCards(LEASE_SECONDS, limit);
    for (const item of pending) {
      let answer;
      try {
        answer = await this.charges.reconcile(item.id);
      } catch (e: any) {
        this.logger.warn({ paymentId: item.id, err: e?.message }, 'card attempt not reconciled yet; the acquirer did not answer');
        continue;
      }
      if (await this.ledger.find(item.id)) {
        await this.payments.dropPendingCard(null, item.id); // the request recorded it after all
      } else if (!answer) {
        await this.ledger.releaseHold(item.id);
        await this.payments.dropPendingCard(null, item.id);
      } else {
        await this.ledger.record(
          { ...item, status: answer.status, reason: answer.reason ?? null, acquirerId: answer.acquirerTransactionId },
          null,
        );
        this.logger.warn(
          { paymentId: item.id, status: answer.status },
          'card attempt recorded from the acquirer after its request was lost',
        );
      }
    }
    return pending.length;
  }
}
