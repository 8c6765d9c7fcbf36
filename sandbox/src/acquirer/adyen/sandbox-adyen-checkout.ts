import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type {
  AdyenEventCode,
  AdyenModificationResponse,
  AdyenNotificationItem,
  AdyenPaymentRequest,
  AdyenPaymentResponse,
  AdyenServiceError,
} from '../../../../kernel/common/protocols/adyen';
import { Clock } from '../../../../kernel/platform/clock/clock';
import * as sql from '../../../../kernel/platform/database/sql';
import { SandboxCardService } from '../sandbox-card.service';
import { ADYEN_HOLDER_NAME_TRIGGERS, adyenOutcomeOf, forcedOutcome } from './adyen-test-data';
import { SandboxAdyenWebhooks } from './sandbox-adyen-webhooks';

/** An Adyen error answer: HTTP status and `ServiceError` body. */
export class AdyenAnswerError {
  constructor(readonly body: AdyenServiceError) {}
}

const refuse = (status: number, errorCode: string, message: string, errorType: string): AdyenAnswerError =>
  new AdyenAnswerError({ status, errorCode, message, errorType });

/** Adyen's 16-character pspReference, derived from the sandbox transaction id (stable on every replay). */
export function pspReferenceOf(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 16).toUpperCase();
}

interface TxRow {
  id: string;
  psp_reference: string;
  merchant_reference: string | null;
  merchant_id: string;
  amount_cents: string;
  status: string;
}

/**
 * The sandbox acquirer answering as Adyen Checkout v72, over the same card transactions as its
 * `generic` face (SandboxCardService: test cards, Luhn and expiry, one transaction per key).
 * `Idempotency-Key` is the transaction key (a retry answers the first result; without one every
 * call is a new payment, as at Adyen); `reference` is the merchant's. Every verdict and
 * modification is reported by a standard webhook (SandboxAdyenWebhooks).
 */
@Injectable()
export class SandboxAdyenCheckout {
  constructor(
    private readonly ds: DataSource,
    private readonly cards: SandboxCardService,
    private readonly webhooks: SandboxAdyenWebhooks,
    private readonly clock: Clock,
  ) {}

  async pay(body: AdyenPaymentRequest, idempotencyKey: string | undefined, merchantAccount: string): Promise<AdyenPaymentResponse> {
    checkPayment(body, merchantAccount);
    const pm = body.paymentMethod;
    const capture = body.additionalData?.manualCapture === 'true' ? 'PREAUTH' : 'SALE';
    const trigger = ADYEN_HOLDER_NAME_TRIGGERS[(pm.holderName ?? '').trim().toUpperCase()];
    const answer = await this.cards.authorize(
      {
        transactionId: idempotencyKey ? `adyen:${idempotencyKey}` : `adyen:${randomUUID()}`,
        merchantId: body.merchantAccount,
        amountCents: body.amount.value,
        installments: body.installments?.value ?? 1,
        capture,
        card: { pan: pm.number, expMonth: Number(pm.expiryMonth), expYear: Number(pm.expiryYear), cvv: pm.cvc, holderName: pm.holderName },
      },
      trigger ? forcedOutcome(trigger, capture) : undefined,
    );
    const psp = pspReferenceOf(answer.acquirerTransactionId);
    await sql.exec(
      this.ds,
      `UPDATE sandbox_acquirer_card_transactions SET psp_reference = $2, merchant_reference = COALESCE(merchant_reference, $3) WHERE id = $1`,
      [answer.acquirerTransactionId, psp, body.reference],
    );
    const outcome = trigger && answer.status !== 'AUTH_REJECTED' ? trigger : adyenOutcomeOf(answer.status, answer.reason);
    await this.webhooks.enqueue(`${psp}:AUTHORISATION`, {
      pspReference: psp,
      merchantAccountCode: body.merchantAccount,
      merchantReference: body.reference,
      eventCode: 'AUTHORISATION',
      eventDate: this.clock.now().toISOString(),
      success: outcome.resultCode === 'Authorised' ? 'true' : 'false',
      amount: { currency: 'BRL', value: body.amount.value },
      paymentMethod: brandOf(pm.number),
      ...(outcome.refusalReason ? { reason: outcome.refusalReason } : {}),
      // Adyen's AUTHORISATION carries the issuer's authorization code, as the answer does
      additionalData: outcome.resultCode === 'Authorised' && answer.authorizationCode ? { authCode: answer.authorizationCode } : {},
    });
    return {
      pspReference: psp,
      resultCode: outcome.resultCode,
      merchantReference: body.reference,
      amount: { currency: 'BRL', value: body.amount.value },
      ...(outcome.refusalReason ? { refusalReason: outcome.refusalReason, refusalReasonCode: outcome.refusalReasonCode } : {}),
      additionalData: answer.authorizationCode ? { authCode: answer.authorizationCode } : {},
    };
  }

  async capture(
    psp: string,
    body: { merchantAccount?: string; amount?: { value?: number; currency?: string }; reference?: string },
    merchantAccount: string,
  ) {
    const tx = await this.modifiable(psp, body, merchantAccount);
    if (!body.amount || !Number.isSafeInteger(body.amount.value) || (body.amount.value ?? 0) <= 0)
      throw refuse(422, '137', 'Invalid amount specified', 'validation');
    if (body.amount.currency !== 'BRL') throw refuse(422, '138', 'Unsupported currency specified', 'validation');
    const value = body.amount.value!;
    let ok = true;
    try {
      await this.cards.capture(tx.id, { amountCents: value });
    } catch {
      ok = false; // not capturable (a sale, voided, more than authorized): Adyen accepts the request and reports CAPTURE_FAILED
    }
    return this.modification(tx, ok ? 'CAPTURE' : 'CAPTURE_FAILED', ok, value, body.reference, merchantAccount);
  }

  async cancel(psp: string, body: { merchantAccount?: string; reference?: string }, merchantAccount: string) {
    const tx = await this.modifiable(psp, body, merchantAccount);
    let ok = true;
    try {
      await this.cards.void(tx.id);
    } catch {
      ok = false;
    }
    return this.modification(tx, 'CANCELLATION', ok, Number(tx.amount_cents), body.reference, merchantAccount);
  }

  private async modifiable(psp: string, body: { merchantAccount?: string }, merchantAccount: string): Promise<TxRow> {
    if (body?.merchantAccount !== merchantAccount) throw refuse(403, '901', 'Invalid Merchant Account', 'security');
    const tx = await sql.maybeOne<TxRow>(
      this.ds,
      `SELECT id, psp_reference, merchant_reference, merchant_id, amount_cents, status FROM sandbox_acquirer_card_transactions WHERE psp_reference = $1`,
      [psp],
    );
    if (!tx) throw refuse(422, '167', 'Original pspReference required for this operation', 'validation');
    return tx;
  }

  private async modification(
    tx: TxRow,
    eventCode: AdyenEventCode,
    success: boolean,
    value: number,
    reference: string | undefined,
    merchantAccount: string,
  ): Promise<AdyenModificationResponse> {
    const own = pspReferenceOf(`${tx.id}:${eventCode}:${reference ?? ''}:${value}`);
    const item: AdyenNotificationItem = {
      pspReference: own,
      originalReference: tx.psp_reference,
      merchantAccountCode: merchantAccount,
      merchantReference: tx.merchant_reference ?? reference ?? '',
      eventCode,
      eventDate: this.clock.now().toISOString(),
      success: success ? 'true' : 'false',
      amount: { currency: 'BRL', value },
      additionalData: {},
    };
    await this.webhooks.enqueue(`${own}:${eventCode}`, item);
    return {
      merchantAccount,
      paymentPspReference: tx.psp_reference,
      pspReference: own,
      ...(reference ? { reference } : {}),
      ...(eventCode === 'CANCELLATION' ? {} : { amount: { currency: 'BRL', value } }),
      status: 'received',
    };
  }
}

function checkPayment(body: AdyenPaymentRequest, merchantAccount: string): void {
  if (!body || typeof body !== 'object') throw refuse(422, '702', 'Structure error: the body is not a PaymentRequest', 'validation');
  if (body.merchantAccount !== merchantAccount) throw refuse(403, '901', 'Invalid Merchant Account', 'security');
  if (typeof body.reference !== 'string' || !body.reference)
    throw refuse(422, '130', "Required field 'reference' is not provided.", 'validation');
  if (typeof body.returnUrl !== 'string' || !body.returnUrl)
    throw refuse(422, '14_006', "Required field 'returnUrl' is not provided.", 'validation');
  if (!body.amount || !Number.isSafeInteger(body.amount.value) || body.amount.value <= 0)
    throw refuse(422, '137', 'Invalid amount specified', 'validation');
  if (body.amount.currency !== 'BRL') throw refuse(422, '138', 'Unsupported currency specified', 'validation');
  const pm = body.paymentMethod;
  if (!pm || pm.type !== 'scheme') throw refuse(422, '14_007', 'Invalid payment method details', 'validation');
  if (typeof pm.number !== 'string' || !/^\d{12,19}$/.test(pm.number)) throw refuse(422, '101', 'Invalid card number', 'validation');
  if (!/^(0?[1-9]|1[0-2])$/.test(String(pm.expiryMonth ?? ''))) throw refuse(422, '129', 'Expiry month invalid', 'validation');
  if (!/^\d{4}$/.test(String(pm.expiryYear ?? ''))) throw refuse(422, '128', 'Expiry year invalid', 'validation');
  if (pm.cvc !== undefined && !/^\d{3,4}$/.test(pm.cvc)) throw refuse(422, '103', 'CVC is not the right length', 'validation');
  const n = body.installments?.value;
  if (n !== undefined && (!Number.isInteger(n) || n < 1 || n > 12)) throw refuse(422, '173', 'Invalid installments', 'validation');
}

function brandOf(pan: string): string {
  if (/^4/.test(pan)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(pan)) return 'mc';
  if (/^3[47]/.test(pan)) return 'amex';
  return 'scheme';
}
