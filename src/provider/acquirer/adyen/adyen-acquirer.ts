import { Injectable } from '@nestjs/common';
import { ProviderCallError } from '../../../../kernel/platform/http/resilient-http';
import type { AdyenModificationResponse, AdyenPaymentRequest, AdyenPaymentResponse } from '../../../../kernel/common/protocols/adyen';
import {
  AcquirerPort,
  BoletoRequest,
  BoletoResult,
  CardAuthorizationRequest,
  CardAuthorizationResult,
  CardRefundRequest,
  CardRefundResult,
  PixChargeRequest,
  PixChargeResult,
} from '../../acquirer.port';
import { HttpAcquirer } from '../http-acquirer';
import { AdyenConfig } from './adyen.config';
import { AdyenBoletos } from './adyen-boletos';
import { AdyenCheckoutClient } from './adyen-checkout.client';
import { cardResultOf, REFUSAL_REASONS } from './adyen-result.map';
import { AdyenStore } from './adyen-store';

/**
 * The card edge over Adyen Checkout v72 (`ACQUIRER_PROVIDER=adyen`). Authorization is
 * `POST /payments` with the card from the vault (raw card fields, `scheme`), the amount in
 * centavos and BRL, our payment id as `reference` and as Adyen's `Idempotency-Key`, so a retry of
 * a call whose answer was lost gets the first answer and never a second charge. PREAUTH is
 * `additionalData.manualCapture`; capture, void and their webhooks follow. Pix stays on
 * the `service` protocol (Pix belongs to the bank edge); boletos go through AdyenBoletos.
 * Each operation has its breaker (`acquirer.<operation>`); Adyen's 4xx never count against it.
 */
@Injectable()
export class AdyenAcquirer extends AcquirerPort {
  constructor(
    private readonly adyen: AdyenCheckoutClient,
    private readonly store: AdyenStore,
    private readonly service: HttpAcquirer,
    private readonly boletos: AdyenBoletos,
  ) {
    super();
  }

  async authorizeCard(req: CardAuthorizationRequest): Promise<CardAuthorizationResult> {
    await this.store.beginAttempt(req.transactionId, req.capture, req.amountCents);
    const res = await this.adyen.post<AdyenPaymentResponse>(
      'authorizeCard',
      '/payments',
      paymentRequest(req, this.adyen.config),
      req.transactionId,
    );
    await this.store.answered(req.transactionId, res?.pspReference ?? null, res?.resultCode ?? null);
    return cardResultOf(res ?? {}, req.capture);
  }

  async capture(pspReference: string, amountCents?: number): Promise<{ status: 'CAPTURED' }> {
    const attempt = await this.store.attemptByPsp(pspReference);
    const value = amountCents ?? attempt?.amountCents;
    if (value === undefined) throw new ProviderCallError('provider_rejected', 'capture: the authorized amount is not known here', 422);
    await this.modify('capture', pspReference, 'captures', { amount: { currency: 'BRL', value } }, `capture-${pspReference}-${value}`);
    // Adyen answers `received`; the CAPTURE webhook confirms (CAPTURE_FAILED is logged and dispatched).
    return { status: 'CAPTURED' };
  }

  async void(pspReference: string): Promise<{ status: 'VOIDED' }> {
    await this.modify('void', pspReference, 'cancels', {}, `cancel-${pspReference}`);
    return { status: 'VOIDED' };
  }

  /**
   * `POST /payments/{pspReference}/refunds`, our refund id as `reference` and `Idempotency-Key`:
   * Adyen answers `received` with the refund's own pspReference, and the verdict comes by the
   * REFUND webhook (success true or false), possibly followed by REFUND_FAILED or
   * REFUNDED_REVERSED; all carry the refund id as merchantReference.
   */
  async refundCard(req: CardRefundRequest): Promise<CardRefundResult> {
    const res = await this.modify(
      'refundCard',
      req.acquirerTransactionId,
      'refunds',
      { amount: { currency: 'BRL', value: req.amountCents } },
      req.refundId,
    );
    return { acquirerRefundId: res?.pspReference ?? '', status: 'PENDING' };
  }

  /**
   * Reconciliation of an attempt whose answer was lost. Checkout v72 has no lookup of a payment
   * by reference: the verdict is the AUTHORISATION webhook Adyen sent for it (kept by
   * AdyenStore); none means Adyen never decided on it (or has not told yet) and the caller
   * fails the attempt. The card is never sent again.
   */
  async findCardAuthorization(transactionId: string): Promise<CardAuthorizationResult | null> {
    const [attempt, verdict, cancelled] = await Promise.all([
      this.store.attemptByReference(transactionId),
      this.store.authorisationOf(transactionId),
      this.store.cancelledByReference(transactionId),
    ]);
    // cancelled at Adyen (our technical cancel took effect): whatever it authorized is void, so
    // the attempt is not authorized here either, even with an AUTHORISATION success on file
    if (!verdict || cancelled) return null;
    if (!verdict.success)
      return {
        acquirerTransactionId: verdict.pspReference,
        status: 'AUTH_REJECTED',
        reason: REFUSAL_REASONS[verdict.reason ?? ''] ?? 'generic_decline',
      };
    const authCode = verdict.additionalData.authCode;
    return {
      acquirerTransactionId: verdict.pspReference,
      status: attempt?.captureMode === 'PREAUTH' ? 'PREAUTH' : 'ACCEPTED',
      ...(authCode ? { authorizationCode: authCode } : {}),
    };
  }

  /**
   * The technical cancel: `POST /cancels` by our merchant reference, for a payment whose
   * pspReference we never learned. Adyen cancels whatever it authorized under that reference,
   * even an authorization still to come, and sends TECHNICAL_CANCEL.
   */
  async cancelUnanswered(transactionId: string): Promise<void> {
    const key = `technical-cancel-${transactionId}`;
    await this.adyen.post(
      'cancelUnanswered',
      '/cancels',
      { merchantAccount: this.adyen.config.merchantAccount, paymentReference: transactionId, reference: key },
      key,
    );
  }

  createPixCharge(req: PixChargeRequest): Promise<PixChargeResult> {
    return this.service.createPixCharge(req);
  }

  createBoleto(req: BoletoRequest): Promise<BoletoResult> {
    return this.boletos.create(req);
  }

  private modify(operation: string, pspReference: string, path: string, body: object, idempotencyKey: string) {
    return this.adyen.post<AdyenModificationResponse>(
      operation,
      `/payments/${encodeURIComponent(pspReference)}/${path}`,
      { merchantAccount: this.adyen.config.merchantAccount, reference: idempotencyKey, ...body },
      idempotencyKey,
    );
  }
}

/** Our authorization as Adyen's `PaymentRequest`: raw card fields, centavos in BRL, installments, capture mode, 3DS as MPI data. */
export function paymentRequest(req: CardAuthorizationRequest, config: AdyenConfig): AdyenPaymentRequest {
  const t = req.threeDs;
  return {
    merchantAccount: config.merchantAccount,
    reference: req.transactionId,
    amount: { currency: 'BRL', value: req.amountCents },
    returnUrl: config.returnUrl,
    paymentMethod: {
      type: 'scheme',
      number: req.card.pan,
      expiryMonth: String(req.card.expMonth).padStart(2, '0'),
      expiryYear: String(req.card.expYear),
      ...(req.card.cvv ? { cvc: req.card.cvv } : {}),
      ...(req.card.holderName ? { holderName: req.card.holderName } : {}),
    },
    ...(req.installments > 1 ? { installments: { value: req.installments } } : {}),
    shopperInteraction: 'Ecommerce',
    countryCode: 'BR',
    ...(req.capture === 'PREAUTH' ? { additionalData: { manualCapture: 'true' } } : { captureDelayHours: 0 }),
    ...(t && (t.cavv || t.eci)
      ? {
          mpiData: {
            ...(t.cavv ? { cavv: t.cavv } : {}),
            ...(t.eci ? { eci: t.eci } : {}),
            ...(t.dsTransactionId ? { dsTransID: t.dsTransactionId } : {}),
            ...(t.status ? { authenticationResponse: t.status } : {}),
            threeDSVersion: '2.2.0',
          },
        }
      : {}),
  };
}
