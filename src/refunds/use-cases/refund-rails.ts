import { Injectable } from '@nestjs/common';
import type { RefundablePayment } from '../../../kernel/common/contracts/refundable-payments.port';
import { Clock } from '../../../kernel/platform/clock/clock';
import { ProviderCallError } from '../../../kernel/platform/http/resilient-http';
import { AcquirerPort } from '../../provider/acquirer.port';
import { Devolucao, DevolucaoRefusal, PixDevolucaoRefused, PixDevolucoes } from '../../provider/pix-devolucoes.port';
import type { RefundReason } from '../domain/refund.state-machine';
import { RefundRecord, RefundsRepository } from '../refunds.repository';
import { ApplyRefundOutcome } from './apply-refund-outcome';

/** Our failure code for each PSP refusal of a devolução (stable; the PSP's words go to failureReason). */
export const DEVOLUCAO_FAILURE: Record<DevolucaoRefusal, string> = {
  exceeds_pix: 'devolucao_exceeds_pix',
  id_reused: 'devolucao_id_reused',
  window_closed: 'refund_window_closed',
  pix_not_found: 'pix_not_found',
  invalid: 'devolucao_rejected',
};

/** What the payer reads on their bank statement (the devolução's `descricao`, up to 140): by the refund's reason, never the tenant's text. */
const DESCRICAO: Record<RefundReason, string> = {
  requested_by_customer: 'Devolução a pedido do pagador',
  fraudulent: 'Devolução de pagamento não reconhecido',
  duplicate: 'Devolução de pagamento em duplicidade',
  product_returned: 'Devolução por produto devolvido',
  other: 'Devolução do recebedor',
};

/** The devolução's `{id}`: our refund id without dashes (32 letters and digits, within DevolucaoId's `[a-zA-Z0-9]{1,35}`). */
export const devolucaoId = (refundId: string) => refundId.replace(/-/g, '');

/** The refund id a devolução `{id}` of ours names, or null for one the PSP named (MED). */
export function refundIdOf(devolucaoId: string): string | null {
  const m = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/.exec(devolucaoId);
  return m ? m.slice(1).join('-') : null;
}

/**
 * What one send (or look-up) came to. `done`: a verdict applied, a refund the acquirer took (its
 * verdict comes by notification), or nothing to send; `processing`: the PSP took the devolução
 * (EM_PROCESSAMENTO), to be looked up later; `refused`: the PSP refused it (the refund FAILED);
 * `unanswered`: no answer (the provider down, a 5xx, a timeout): to be sent again; `awaitingPix`:
 * the Pix to give back is not known to us yet, so nothing was sent.
 */
export type RailAnswer =
  | { kind: 'done' }
  | { kind: 'processing' }
  | { kind: 'refused'; refused: PixDevolucaoRefused }
  | { kind: 'unanswered'; error: ProviderCallError }
  | { kind: 'awaitingPix' };

const DONE: RailAnswer = { kind: 'done' };

/**
 * The rails money goes back on, picked by the payment's rail: a card refund at the acquirer
 * (`AcquirerPort.refundCard`, keyed by the refund id), or an API Pix devolução of the Pix received
 * (`PUT /pix/{e2eid}/devolucao/{id}`, natureza ORIGINAL, `{id}` the refund id without dashes). Either
 * is safe to send again. Each answer is applied: a verdict through ApplyRefundOutcome, a refund
 * taken (PENDING at the provider) kept with its reference. What is left to do (send again, look a
 * devolução up) is said by the answer; the refund's job on the queue does it (SendRefund).
 */
@Injectable()
export class RefundRails {
  constructor(
    private readonly refunds: RefundsRepository,
    private readonly acquirer: AcquirerPort,
    private readonly devolucoes: PixDevolucoes,
    private readonly outcome: ApplyRefundOutcome,
    private readonly clock: Clock,
  ) {}

  /** Sends the refund on its rail and applies the answer. */
  async send(r: RefundRecord, p: RefundablePayment): Promise<RailAnswer> {
    if (p.rail === 'payout') return DONE; // the tenant pays it out and confirms it (SettlePayout)
    if (p.rail === 'pix') return this.sendDevolucao(r, p);
    return p.acquirerTransactionId ? this.sendCard(r, p.acquirerTransactionId) : DONE;
  }

  /** A refund still PENDING, again: a devolução the PSP took is looked up (and sent again if it never arrived); anything else sent. */
  async resend(r: RefundRecord, p: RefundablePayment): Promise<RailAnswer> {
    if (p.rail !== 'pix' || !p.pix || !r.providerReference) return this.send(r, p);
    try {
      const d = await this.devolucoes.lookup(p.pix.endToEndId, devolucaoId(r.id));
      if (!d) return this.send(r, p);
      await this.applyDevolucao(r.id, d);
      return d.status === 'EM_PROCESSAMENTO' ? { kind: 'processing' } : DONE;
    } catch (e) {
      if (!(e instanceof ProviderCallError)) throw e;
      return { kind: 'unanswered', error: e };
    }
  }

  /** A devolução's state as the PSP reports it (its answer, a callback, a lookup), applied to our refund. */
  async applyDevolucao(refundId: string, d: Devolucao): Promise<void> {
    if (d.status === 'EM_PROCESSAMENTO') await this.refunds.taken(refundId, d.rtrId, this.clock.now());
    else if (d.status === 'DEVOLVIDO') await this.outcome.apply(refundId, { trigger: 'succeeded', providerReference: d.rtrId });
    else
      await this.outcome.apply(refundId, {
        trigger: 'failed',
        providerReference: d.rtrId,
        failureCode: 'devolucao_nao_realizada',
        failureReason: d.motivo,
      });
  }

  private async sendDevolucao(r: RefundRecord, p: RefundablePayment): Promise<RailAnswer> {
    // the Pix is not known yet (a boleto paid by Pix before the PSP's callback): its job tries again later
    if (!p.pix) return { kind: 'awaitingPix' };
    try {
      const d = await this.devolucoes.request({
        endToEndId: p.pix.endToEndId,
        id: devolucaoId(r.id),
        amountCents: r.amountCents,
        descricao: DESCRICAO[r.reason],
      });
      await this.applyDevolucao(r.id, d);
      return d.status === 'EM_PROCESSAMENTO' ? { kind: 'processing' } : DONE;
    } catch (e) {
      if (e instanceof PixDevolucaoRefused) {
        await this.outcome.apply(r.id, { trigger: 'failed', failureCode: DEVOLUCAO_FAILURE[e.reason], failureReason: e.detail });
        return { kind: 'refused', refused: e };
      }
      if (!(e instanceof ProviderCallError)) throw e;
      return { kind: 'unanswered', error: e }; // it stays PENDING; its job sends it again with the same {id}
    }
  }

  private async sendCard(r: RefundRecord, acquirerTransactionId: string): Promise<RailAnswer> {
    try {
      const a = await this.acquirer.refundCard({ refundId: r.id, acquirerTransactionId, amountCents: r.amountCents });
      if (a.status === 'PENDING') {
        await this.refunds.taken(r.id, a.acquirerRefundId, this.clock.now());
      } else {
        await this.outcome.apply(r.id, {
          trigger: a.status === 'SUCCEEDED' ? 'succeeded' : 'failed',
          providerReference: a.acquirerRefundId,
          failureReason: a.reason ?? null,
        });
      }
      return DONE;
    } catch (e) {
      if (!(e instanceof ProviderCallError)) throw e;
      if (e.code !== 'provider_rejected') return { kind: 'unanswered', error: e }; // its job sends it again with the same id
      await this.outcome.apply(r.id, { trigger: 'failed', failureCode: 'acquirer_rejected', failureReason: refusalCode(e.body) });
      return DONE;
    }
  }
}

/** The acquirer's own code of a refusal (Adyen's `errorCode`, the service protocol's `error`), never its message. */
function refusalCode(body: unknown): string | null {
  const b = (body && typeof body === 'object' ? body : {}) as { errorCode?: unknown; error?: unknown };
  const code = typeof b.errorCode === 'string' ? b.errorCode : typeof b.error === 'string' ? b.error : null;
  return code && /^[\w.-]{1,64}$/.test(code) ? code : null;
}
