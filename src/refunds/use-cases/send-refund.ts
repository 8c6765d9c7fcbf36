import { Injectable } from '@nestjs/common';
import { CardPaymentRefunds } from '../../common/contracts/refundable-payments.port';
import { Clock } from '../../platform/clock/clock';
import { ProviderCallError } from '../../platform/http/resilient-http';
import { PeriodicJobs } from '../../platform/jobs/periodic-jobs';
import { AcquirerPort } from '../../provider/acquirer.port';
import { RefundRecord, RefundsRepository } from '../refunds.repository';
import { ApplyRefundOutcome } from './apply-refund-outcome';

/**
 * Sends a refund to the acquirer and applies its first answer. Our refund id is the acquirer's
 * idempotency key, so sending again is always safe: a refund whose answer was lost, or whose
 * process died before sending, is sent again by the `refunds-send` job (leased rows, 30 s then
 * doubling) until the acquirer answers; it refunds once. A 4xx refusal fails the refund at once.
 */
@Injectable()
export class SendRefund {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly payments: CardPaymentRefunds,
    private readonly acquirer: AcquirerPort,
    private readonly outcome: ApplyRefundOutcome,
    private readonly clock: Clock,
    jobs: PeriodicJobs,
  ) {
    jobs.schedule({ name: 'refunds-send', everyMs: 10_000, run: () => this.sendDue() });
  }

  /** The refund as it stands after the acquirer's first answer (or unchanged when there was none). */
  async send(r: RefundRecord, acquirerTransactionId: string): Promise<RefundRecord> {
    // the row each write returns is the refund as it stands; read again only when none did
    let after: RefundRecord | null = null;
    try {
      const a = await this.acquirer.refundCard({ refundId: r.id, acquirerTransactionId, amountCents: r.amountCents });
      if (a.status === 'PENDING') {
        after = await this.refunds.taken(r.id, a.acquirerRefundId, this.clock.now());
      } else {
        after = await this.outcome.apply(r.id, {
          trigger: a.status === 'SUCCEEDED' ? 'succeeded' : 'failed',
          providerReference: a.acquirerRefundId,
          failureReason: a.reason ?? null,
        });
      }
    } catch (e) {
      if (!(e instanceof ProviderCallError)) throw e;
      // no answer: it stays PENDING and the job sends it again with the same id
      if (e.code === 'provider_rejected')
        after = await this.outcome.apply(r.id, { trigger: 'failed', failureCode: 'acquirer_rejected', failureReason: refusalCode(e.body) });
    }
    return after ?? (await this.refunds.get(r.id))!;
  }

  /** One pass of the job: every pending refund due for a (re)send. */
  async sendDue(limit = 50): Promise<number> {
    const due = await this.refunds.lease(this.clock.now(), limit);
    for (const r of due) {
      const p = await this.payments.find(r.tenantId, r.paymentId);
      if (p?.acquirerTransactionId) await this.send(r, p.acquirerTransactionId);
    }
    return due.length;
  }
}

/** The acquirer's own code of a refusal (Adyen's `errorCode`, the service protocol's `error`), never its message. */
function refusalCode(body: unknown): string | null {
  const b = (body && typeof body === 'object' ? body : {}) as { errorCode?: unknown; error?: unknown };
  const code = typeof b.errorCode === 'string' ? b.errorCode : typeof b.error === 'string' ? b.error : null;
  return code && /^[\w.-]{1,64}$/.test(code) ? code : null;
}
