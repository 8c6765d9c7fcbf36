import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { CardCharges } from '../../provider/acquirer/card-charges';
import { ProviderCallError } from '../../../kernel/platform/http/resilient-http';
import { CardErrors } from '../cards.errors';
import { CardPaymentRecord, CardPaymentsRepository } from './card-payments.repository';
import { CardPaymentTrigger, sourcesOf, transition } from '../../provider/acquirer/card-charge.state-machine';
import { CardPaymentWriter } from './card-payment-writer';
import { toCents, toUnits } from './card-payment.view';
import { Tx, transaction } from '../../../kernel/platform/database/sql';

/**
 * Capture (PREAUTH → CAPTURED) and void (→ VOIDED, on day 0 only) of a card payment. The row is
 * locked (SELECT … FOR UPDATE) while the acquirer is asked, so two concurrent captures or a
 * capture racing a void cannot both reach the acquirer; the change and its webhook commit
 * together, or nothing changes.
 */
@Injectable()
export class SettleCardPayment {
  constructor(
    private readonly ds: DataSource,
    private readonly payments: CardPaymentsRepository,
    private readonly writer: CardPaymentWriter,
    private readonly clock: Clock,
    private readonly charges: CardCharges,
  ) {}

  capture(tenantId: string, paymentId: string, amount?: number): Promise<CardPaymentRecord> {
    return transaction(this.ds, async (m) => {
      const p = await this.locked(m, tenantId, paymentId, 'capture');
      const cents = amount === undefined ? p.amountCents : toCents(amount);
      if (cents > p.amountCents) {
        throw CardErrors.error('validation_error', 'The request has invalid fields', {
          details: [
            { field: 'amount', code: 'max', message: `amount must not exceed the authorized ${toUnits(p.amountCents).toFixed(2)}` },
          ],
        });
      }
      await this.ask(() => this.charges.capture(p.acquirerTransactionId!, cents));
      return (await this.writer.change(m, p.id, {
        to: 'CAPTURED',
        allowedFrom: sourcesOf('capture'),
        now: this.clock.now(),
        capturedAmountCents: cents,
        captured: true,
      }))!;
    });
  }

  void(tenantId: string, paymentId: string): Promise<CardPaymentRecord> {
    return transaction(this.ds, async (m) => {
      const p = await this.locked(m, tenantId, paymentId, 'void');
      if (p.authorizedOn !== this.clock.today()) {
        throw CardErrors.error(
          'void_window_closed',
          `A card payment can be voided only on the day it was authorized (${p.authorizedOn}); today is ${this.clock.today()}`,
        );
      }
      await this.ask(() => this.charges.void(p.acquirerTransactionId!));
      return (await this.writer.change(m, p.id, { to: 'VOIDED', allowedFrom: sourcesOf('void'), now: this.clock.now(), voided: true }))!;
    });
  }

  /**
   * Releases a pre-authorization never captured (a refund of it): PREAUTH → VOIDED on any day,
   * the acquirer's cancel first. Unlike `void`, no day-0 window: an uncaptured hold can always be let go.
   */
  release(tenantId: string, paymentId: string): Promise<CardPaymentRecord> {
    return transaction(this.ds, async (m) => {
      const p = await this.locked(m, tenantId, paymentId, 'void');
      if (p.status !== 'PREAUTH') throw CardErrors.error('invalid_payment_status', `A ${p.status} payment is not a pre-authorization`);
      await this.ask(() => this.charges.void(p.acquirerTransactionId!));
      return (await this.writer.change(m, p.id, { to: 'VOIDED', allowedFrom: ['PREAUTH'], now: this.clock.now(), voided: true }))!;
    });
  }

  /** The acquirer reported a capture or cancel it had taken as failed: CAPTURED → CAPTURE_FAILED, VOIDED → VOID_FAILED, with the webhook. */
  reportedFailed(paymentId: string, trigger: 'capture_failed' | 'void_failed'): Promise<CardPaymentRecord | null> {
    return transaction(this.ds, (m) =>
      this.writer.change(m, paymentId, {
        to: trigger === 'capture_failed' ? 'CAPTURE_FAILED' : 'VOID_FAILED',
        allowedFrom: sourcesOf(trigger),
        now: this.clock.now(),
        reason: trigger,
      }),
    );
  }

  /** The acquirer reported a cancel it took of a payment held here as authorized (its answer was lost): PREAUTH or ACCEPTED → VOIDED, with the webhook. */
  reportedVoided(paymentId: string): Promise<CardPaymentRecord | null> {
    return transaction(this.ds, (m) =>
      this.writer.change(m, paymentId, { to: 'VOIDED', allowedFrom: ['PREAUTH', 'ACCEPTED'], now: this.clock.now(), voided: true }),
    );
  }

  private async locked(m: Tx, tenantId: string, paymentId: string, trigger: CardPaymentTrigger): Promise<CardPaymentRecord> {
    const p = await this.payments.find(m, tenantId, paymentId, true);
    if (!p) throw CardErrors.error('payment_not_found', 'No such card payment for this tenant');
    if (!transition(p.status, trigger) || !p.acquirerTransactionId) {
      throw CardErrors.error('invalid_payment_status', `A ${p.status} payment cannot be ${trigger === 'capture' ? 'captured' : 'voided'}`);
    }
    return p;
  }

  private async ask(call: () => Promise<unknown>): Promise<void> {
    try {
      await call();
    } catch (e) {
      if (e instanceof ProviderCallError && e.code === 'provider_rejected') {
        throw CardErrors.error('acquirer_rejected', 'The acquirer refused the operation; the payment is unchanged', {
          details: refusalDetails(e.body),
        });
      }
      throw CardErrors.error('acquirer_unavailable', 'The acquirer could not be reached; the payment is unchanged, retry later');
    }
  }
}

/**
 * The acquirer's own code of a refusal, for the caller: Adyen's `ServiceError` (`errorCode`,
 * `errorType`) or the `service` protocol's envelope (`error`). Never its message, which is the
 * acquirer's text, not ours.
 */
function refusalDetails(body: unknown): { field: string; code: string; message: string }[] {
  const b = (body && typeof body === 'object' ? body : {}) as { errorCode?: unknown; errorType?: unknown; error?: unknown };
  const code = typeof b.errorCode === 'string' ? b.errorCode : typeof b.error === 'string' ? b.error : null;
  if (!code || !/^[\w.-]{1,64}$/.test(code)) return [];
  const kind = typeof b.errorType === 'string' && /^[\w.-]{1,32}$/.test(b.errorType) ? ` (${b.errorType})` : '';
  return [{ field: 'acquirer', code, message: `the acquirer refused with code ${code}${kind}` }];
}
