import { Injectable } from '@nestjs/common';
import { ProviderCallError } from '../../platform/http/resilient-http';
import { AcquirerPort, CardAuthorizationRequest, CardAuthorizationResult } from '../acquirer.port';
import { CardPaymentTrigger } from './card-charge.state-machine';

/** The acquirer's answer to an authorization, or FAILED with why when it refused the call or could not be reached. */
export type CardChargeOutcome = CardAuthorizationResult;

/** The trigger of the charge table each outcome fires from PROCESSING. */
export const OUTCOME_TRIGGER: Readonly<Record<CardChargeOutcome['status'], CardPaymentTrigger>> = {
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
   * A refusal of the call (4xx) is FAILED `acquirer_rejected`, no answer (5xx, timeout, open
   * breaker) FAILED `acquirer_unavailable`; the caller records either and may reconcile later.
   */
  async authorize(req: CardAuthorizationRequest): Promise<CardChargeOutcome> {
    try {
      return await this.acquirer.authorizeCard(req);
    } catch (e) {
      if (!(e instanceof ProviderCallError)) throw e;
      return {
        acquirerTransactionId: '',
        status: 'FAILED',
        reason: e.code === 'provider_rejected' ? 'acquirer_rejected' : 'acquirer_unavailable',
      };
    }
  }

  /**
   * What the acquirer holds for our transaction id (reconciliation of an attempt whose answer
   * was lost): its result, or null when it never got the attempt. Throws when it cannot be asked.
   */
  reconcile(transactionId: string): Promise<CardChargeOutcome | null> {
    return this.acquirer.findCardAuthorization(transactionId);
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
