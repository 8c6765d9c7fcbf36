import { Injectable } from '@nestjs/common';
import type { RefundablePayment } from '../../../kernel/common/contracts/refundable-payments.port';
import type { Tx } from '../../../kernel/platform/database/sql';
import { JobNotYet, JobQueue, QueuedJob } from '../../../kernel/platform/queue/job-queue';
import type { PixDevolucaoRefused } from '../../provider/pix-devolucoes.port';
import { PaymentsOf } from '../payments-of';
import { RefundsConfig } from '../refunds.config';
import { RefundRecord, RefundsRepository } from '../refunds.repository';
import { RefundRails } from './refund-rails';

/** The job kinds that (re)send a refund, one per rail so a dead one degrades its class: the acquirer's, the bank's. */
export const REFUND_SEND_JOB = { card: 'refund.send.card', pix: 'refund.send.pix' } as const;
/** How long a refund waits for its first answer (sent by the request) before its job sends it again. */
const FIRST_RESEND_MS = 30_000;
/** How long a devolução the job's own send left EM_PROCESSAMENTO waits before it is looked up (GET), if no callback told us. */
export const DEVOLUCAO_LOOKUP_MS = 60_000;
/** How often a refund waiting for its Pix to be known looks again (no attempt counted: nothing was sent, nothing failed). */
const AWAIT_PIX_MS = 10_000;

/**
 * Sends a refund on its rail (RefundRails: the acquirer's refund, or an API Pix devolução) and
 * applies its first answer. Our refund id is the provider's idempotency key (the acquirer's key,
 * the devolução's `{id}`), so sending again is always safe. Every refund to send has a job on the
 * job queue, enqueued with the refund and due 30 s later: it finds the refund settled or taken and
 * ends, or sends it again (its answer lost, its process dead before sending), or looks up a
 * devolução the PSP took (EM_PROCESSAMENTO) when no callback settled it. No answer, or a devolução
 * still processing: the job fails and waits its backoff (REFUND_SEND_*); past its attempts it is
 * dead, the refund stays PENDING, and the operator replays it once the cause is fixed. A Pix not
 * known yet is no failure: the job looks again every 10 s, no attempt counted. The refund's change
 * and the job's `done` commit together. A 4xx refusal fails the refund.
 */
@Injectable()
export class SendRefund {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly payments: PaymentsOf,
    private readonly rails: RefundRails,
    private readonly queue: JobQueue,
    config: RefundsConfig,
  ) {
    queue.register(REFUND_SEND_JOB.card, { ...config.send, dependency: 'acquirer' }, (job, tx) => this.resend(job, tx));
    queue.register(REFUND_SEND_JOB.pix, { ...config.send, dependency: 'bank' }, (job, tx) => this.resend(job, tx));
  }

  /** The refund's job, in the transaction that makes it (a payout's has nothing to send: none). */
  async enqueue(tx: Tx, r: RefundRecord): Promise<void> {
    if (r.rail !== 'payout') await this.queue.enqueue(tx, REFUND_SEND_JOB[r.rail], r.id, { refundId: r.id }, FIRST_RESEND_MS);
  }

  /** The refund as it stands after the provider's first answer (or unchanged when there was none), and the PSP's refusal if any. */
  async send(r: RefundRecord, p: RefundablePayment): Promise<{ refund: RefundRecord; refused: PixDevolucaoRefused | null }> {
    const a = await this.rails.send(r, p);
    return { refund: (await this.refunds.get(r.id))!, refused: a.kind === 'refused' ? a.refused : null };
  }

  /** The job: a refund still PENDING sent again or looked up; throws (an attempt counted) while nothing settled or took it. */
  private async resend(job: QueuedJob, tx: Tx): Promise<void> {
    const r = await this.refunds.find(tx, null, String(job.payload.refundId ?? job.key));
    if (!r || r.status !== 'PENDING' || r.rail === 'payout') return; // settled meanwhile (a notification, a callback)
    if (r.rail === 'card' && r.providerReference) return; // the acquirer took it: its verdict comes by notification
    const p = await this.payments.find(r.tenantId, { kind: r.paymentKind, paymentId: r.paymentId });
    if (!p) throw new Error(`the refund's payment ${r.paymentId} is not found`);
    const a = await this.rails.resend(r, p);
    if (a.kind === 'unanswered') throw new Error(`no answer from the ${r.rail === 'card' ? 'acquirer' : 'PSP'}: ${a.error.message}`);
    if (a.kind === 'awaitingPix') throw new JobNotYet(AWAIT_PIX_MS, 'the Pix to give back is not known yet');
    if (a.kind !== 'processing') return;
    // a look-up (or a re-send of one looked up) still processing: nothing of it to keep, looked up again on the backoff
    if (r.providerReference) throw new Error('the devolução is still EM_PROCESSAMENTO');
    // sent by this job and taken: its reference is kept with this job's done, and a job of its own looks it up
    await this.queue.enqueue(tx, REFUND_SEND_JOB.pix, `${r.id}:lookup`, { refundId: r.id }, DEVOLUCAO_LOOKUP_MS);
  }
}
