import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { AdyenAmount } from '../../../../kernel/common/protocols/adyen';
import { Clock } from '../../../../kernel/platform/clock/clock';
import * as sql from '../../../../kernel/platform/database/sql';
import { SandboxCardService } from '../sandbox-card.service';
import { CASE_TX_COLUMNS, CaseTransaction, RefundRow } from '../sandbox-cases.types';
import { SandboxRefunds } from '../sandbox-refunds.service';
import { adyenPaymentMethodOf } from './sandbox-adyen-cases';
import { AdyenAnswerError, pspReferenceOf } from './sandbox-adyen-checkout';
import { SandboxAdyenWebhooks } from './sandbox-adyen-webhooks';

const refuse = (errorCode: string, message: string, status = 422, errorType = 'validation'): AdyenAnswerError =>
  new AdyenAnswerError({ status, errorCode, message, errorType });

const REASONS = ['FRAUD', 'CUSTOMER REQUEST', 'RETURN', 'DUPLICATE', 'OTHER'];

type Body = Record<string, any> | undefined;

/**
 * Checkout v72's refund operations at the sandbox's Adyen face: `POST /payments/{psp}/refunds`
 * (part or all of what was captured), `/reversals` (refund if captured, cancel if not) and the
 * standalone `POST /cancels` by the payment's merchant reference (the technical cancel, for a
 * payment whose pspReference was never learned). Each answers `received` (201) and reports its
 * outcome by webhook: REFUND (then REFUND_FAILED or REFUNDED_REVERSED, by the test amounts),
 * CANCEL_OR_REFUND, TECHNICAL_CANCEL. The same `Idempotency-Key` answers the same refund; with
 * another body it is refused (704), as Adyen does.
 */
@Injectable()
export class SandboxAdyenRefunds {
  constructor(
    private readonly ds: DataSource,
    private readonly refunds: SandboxRefunds,
    private readonly cards: SandboxCardService,
    private readonly webhooks: SandboxAdyenWebhooks,
    private readonly clock: Clock,
  ) {}

  async refund(psp: string, body: Body, idempotencyKey: string | undefined, merchantAccount: string) {
    const b = checked(body, merchantAccount);
    const amount = b.amount as AdyenAmount | undefined;
    if (!amount || !Number.isSafeInteger(amount.value) || amount.value <= 0) throw refuse('137', 'Invalid amount specified');
    if (amount.currency !== 'BRL') throw refuse('138', 'Unsupported currency specified');
    if (b.merchantRefundReason != null && !REASONS.includes(b.merchantRefundReason))
      throw refuse('702', "Field 'merchantRefundReason' is not valid.");
    const tx = await this.payment(psp);
    const r = await this.take(tx, 'REFUND', idempotencyKey, b, amount.value);
    return {
      merchantAccount,
      paymentPspReference: tx.psp_reference!,
      pspReference: r.psp_reference!,
      ...(r.merchant_reference ? { reference: r.merchant_reference } : {}),
      amount: { currency: 'BRL', value: Number(r.amount_cents) },
      ...(b.merchantRefundReason ? { merchantRefundReason: b.merchantRefundReason } : {}),
      status: 'received' as const,
    };
  }

  async reversal(psp: string, body: Body, idempotencyKey: string | undefined, merchantAccount: string) {
    const b = checked(body, merchantAccount);
    const tx = await this.payment(psp);
    const r = await this.take(tx, 'REVERSAL', idempotencyKey, b);
    return {
      merchantAccount,
      paymentPspReference: tx.psp_reference!,
      pspReference: r.psp_reference!,
      ...(r.merchant_reference ? { reference: r.merchant_reference } : {}),
      status: 'received' as const,
    };
  }

  /**
   * The technical cancel: the latest payment with this merchant reference is cancelled as
   * `/payments/{psp}/cancels` would (the sandbox's void rules); TECHNICAL_CANCEL reports it, with
   * success "false" when it could not be cancelled or no payment has that reference.
   */
  async technicalCancel(body: Body, idempotencyKey: string | undefined, merchantAccount: string) {
    const b = checked(body, merchantAccount);
    if (typeof b.paymentReference !== 'string' || !b.paymentReference)
      throw refuse('130', "Required field 'paymentReference' is not provided.");
    const own = pspReferenceOf(`technical-cancel:${b.paymentReference}:${idempotencyKey ?? randomUUID()}`);
    const tx = await sql.maybeOne<CaseTransaction>(
      this.ds,
      `SELECT ${CASE_TX_COLUMNS} FROM sandbox_acquirer_card_transactions
       WHERE merchant_reference = $1 AND psp_reference IS NOT NULL AND merchant_id = $2 ORDER BY created_at DESC LIMIT 1`,
      [b.paymentReference, merchantAccount],
    );
    let ok = false;
    if (tx)
      ok = await this.cards.void(tx.id).then(
        () => true,
        () => false,
      );
    await this.webhooks.enqueue(`${own}:TECHNICAL_CANCEL`, {
      pspReference: own,
      ...(tx ? { originalReference: tx.psp_reference! } : {}),
      merchantAccountCode: merchantAccount,
      merchantReference: b.paymentReference,
      eventCode: 'TECHNICAL_CANCEL',
      eventDate: this.clock.now().toISOString(),
      success: ok ? 'true' : 'false',
      amount: { currency: 'BRL', value: tx ? Number(tx.amount_cents) : 0 },
      ...(tx ? { paymentMethod: adyenPaymentMethodOf(tx.brand) } : {}),
      ...(ok ? {} : { reason: tx ? 'Payment could not be cancelled' : 'Original payment not found' }),
      additionalData: {},
    });
    return {
      merchantAccount,
      paymentReference: b.paymentReference,
      pspReference: own,
      ...(typeof b.reference === 'string' ? { reference: b.reference } : {}),
      status: 'received' as const,
    };
  }

  private async payment(psp: string): Promise<CaseTransaction> {
    const tx = await sql.maybeOne<CaseTransaction>(
      this.ds,
      `SELECT ${CASE_TX_COLUMNS} FROM sandbox_acquirer_card_transactions WHERE psp_reference = $1`,
      [psp],
    );
    if (!tx) throw refuse('167', 'Original pspReference required for this operation');
    return tx;
  }

  private async take(
    tx: CaseTransaction,
    kind: 'REFUND' | 'REVERSAL',
    key: string | undefined,
    b: Record<string, any>,
    amountCents?: number,
  ) {
    const reference = typeof b.reference === 'string' && b.reference ? b.reference : undefined;
    const hash = createHash('sha256')
      .update(JSON.stringify([kind, tx.id, amountCents ?? null, reference ?? null, b.merchantRefundReason ?? null]))
      .digest('hex');
    const taken = await this.refunds.take({
      face: 'adyen',
      kind,
      cardTransactionId: tx.id,
      key: key ?? randomUUID(),
      hash,
      amountCents,
      merchantReference: reference,
      pspReferenceOf,
    });
    if ('refused' in taken) throw refuse('167', 'Original pspReference required for this operation');
    const r: RefundRow = taken.refund;
    if (taken.replay && r.request_hash !== hash)
      throw refuse('704', 'Request already processed or in progress with a different body for this Idempotency-Key');
    return r;
  }
}

function checked(body: Body, merchantAccount: string): Record<string, any> {
  if (!body || typeof body !== 'object') throw refuse('702', 'Structure error: the body is not a modification request');
  if (body.merchantAccount !== merchantAccount) throw refuse('901', 'Invalid Merchant Account', 403, 'security');
  return body;
}
