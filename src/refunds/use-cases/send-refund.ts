import { Injectable } from '@nestjs/common';
import type { RefundablePayment } from '../../../kernel/common/contracts/refundable-payments.port';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PeriodicJobs } from '../../../kernel/platform/jobs/periodic-jobs';
import type { PixDevolucaoRefused } from '../../provider/pix-devolucoes.port';
import { PaymentsOf } from '../payments-of';
import { RefundRecord, RefundsRepository } from '../refunds.repository';
import { RefundRails } from './refund-rails';

/**
 * Sends a refund on its rail (RefundRails: the acquirer's refund, or an API Pix devolução) and
 * applies its first answer. Our refund id is the provider's idempotency key (the acquirer's key,
 * the devolução's `{id}`), so sending again is always safe: a refund whose answer was lost, or
 * whose process died before sending, is sent again by the `refunds-send` job (leased rows, 30 s
 * then doubling) until the provider answers; it refunds once. A devolução the PSP took
 * (EM_PROCESSAMENTO) is looked up by the same job when no callback settled it. A 4xx refusal fails
 * the refund at once.
 */
@Injectable()
export class SendRefund {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly payments: PaymentsOf,
    private readonly rails: RefundRails,
    private readonly clock: Clock,
    jobs: PeriodicJobs,
  ) {
    jobs.schedule({ name: 'refunds-send', everyMs: 10_000, run: () => this.sendDue() });
  }

  /** The refund as it stands after the provider's first answer (or unchanged when there was none), and the PSP's refusal if any. */
  async send(r: RefundRecord, p: RefundablePayment): Promise<{ refund: RefundRecord; refused: PixDevolucaoRefused | null }> {
    const refused = await this.rails.send(r, p);
    return { refund: (await this.refunds.get(r.id))!, refused };
  }

  /** One pass of the job: every pending refund due for a (re)send or a lookup. */
  async sendDue(limit = 50): Promise<number> {
    const due = await this.refunds.lease(this.clock.now(), limit);
    for (const r of due) {
      const p = await this.payments.find(r.tenantId, { kind: r.paymentKind, paymentId: r.paymentId });
      if (p) await this.rails.resend(r, p);
    }
    return due.length;
  }
}
