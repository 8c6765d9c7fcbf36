import { Injectable } from '@nestjs/common';
import { ProviderCallError } from '../../../kernel/platform/http/resilient-http';
import { AcquirerPort, CardAuthorizationRequest, CardAuthorizationResult } from '../acquirer.port';
import { CardPaymentTrigger } from './card-charge.state-machine';

/**
 * The acquirer's answer to an authorization; FAILED with why when it refused the call, or when it
 * could not be reached and the attempt was cancelled there; UNKNOWN when the attempt may have
 * reached it and neither its verdict nor a cancel could be had (the caller leaves it to
 * reconciliation, never reports it failed).
 */
export type CardChargeOutcome = CardAuthorizationResult | { acquirerTransactionId: ''; status: 'UNKNOWN'; reason: 'acquirer_unavailable' };

/** The trigger of the charge table each outcome fires from PROCESSING. */
export const OUTCOME_TRIGGER: Readonly<Record<CardAuthorizationResult['status'], CardPaymentTrigger>> = {
  ACCEPTED: 'approved_sale',
  PREAUTH: 'approved_preauth',
  AUTH_REJECTED: 'refused',
  FAILED: 'failed',
};

/**
 * The card-charge capability below links and cards: authorize (sale or pre-authorization),
 * capture, void and reconcile through the acquirer port, with one reading of its failures and
 * one status table (card-charge.state-machine.ts). Links (the hosted checkout) and cards (the
 * card payments API) each keep their own records and answers; neither charges a card any other
 * way. 3DS results reach an authorization as the request's `threeDs`, from the cards module's
 * port, not from shared tables.
 */
@Injectable()
export class CardCharges {
  constructor(private readonly acquirer: AcquirerPort) {}

  /**
   * Authorizes once per transaction id (the acquirer treats a repeat as the same transaction).
   * A refusal of the call (4xx) is FAILED `acquirer_rejected`. No answer (5xx, timeout, open
   * breaker after a try that may have reached it) is no verdict: the call may have been authorized, so the
   * attempt is settled there first (`reconcile`): its result when the acquirer has one; FAILED
   * `acquirer_unavailable` only once the acquirer cancelled it; UNKNOWN when neither could be had.
   */
  async authorize(req: CardAuthorizationRequest): Promise<CardChargeOutcome> {
    try {
      return await this.acquirer.authorizeCard(req);
    } catch (e) {
      if (!(e instanceof ProviderCallError)) throw e;
      if (e.code === 'provider_rejected') return { acquirerTransactionId: '', status: 'FAILED', reason: 'acquirer_rejected' };
      if (!e.mayHaveReached) return { acquirerTransactionId: '', status: 'FAILED', reason: 'acquirer_unavailable' };
      try {
        return (await this.reconcile(req.transactionId)) ?? { acquirerTransactionId: '', status: 'FAILED', reason: 'acquirer_unavailable' };
      } catch {
        return { acquirerTransactionId: '', status: 'UNKNOWN', reason: 'acquirer_unavailable' };
      }
    }
  }

  /**
   * Settles an attempt whose answer was lost: the acquirer's result for our transaction id when it
   * has one; otherwise the attempt is cancelled at the acquirer (so nothing it authorizes later
   * stands) and the answer is null. Throws when the acquirer cannot be asked or cannot cancel:
   * the attempt stays unsettled for the next try.
   */
  async reconcile(transactionId: string): Promise<CardAuthorizationResult | null> {
    const found = await this.acquirer.findCardAuthorization(transactionId);
    if (found) return found;
    await this.acquirer.cancelUnanswered(transactionId);
    return null;
  }

  /** Cancels at the acquirer whatever it authorized for our transaction id (a late authorization of a payment failed here). */
  cancelUnanswered(transactionId: string): Promise<void> {
    return this.acquirer.cancelUnanswered(transactionId);
  }

  /** Captures a pre-authorization (all of it, or `amountCents`). Throws ProviderCallError when refused or unreachable. */
  async capture(acquirerTransactionId: string, amountCents?: number): Promise<void> {
    await this.acquirer.capture(acquirerTransactionId, amountCents);
  }

  /** Voids an authorization or a captured sale. Throws ProviderCallError when refused or unreachable. */
  async void(acquirerTransactionId: string): Promise<void> {
    await this.acquirer.void(acquirerTransactionId);
  }
}
