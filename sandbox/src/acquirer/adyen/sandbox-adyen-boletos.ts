import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { CodedError } from '../../../../kernel/common/formats/coded-error';
import { formatLine } from '../../../../kernel/common/formats/boleto';
import type { AdyenAmount, AdyenPaymentResponse } from '../../../../kernel/common/protocols/adyen';
import { isValidTaxId } from '../../../../kernel/common/tax-id';
import { Clock, saoPauloDate } from '../../../../kernel/platform/clock/clock';
import { selfOrigin } from '../../../../kernel/platform/http/self-origin';
import { SandboxBoletoService } from '../sandbox-boleto.service';
import { AdyenAnswerError, pspReferenceOf } from './sandbox-adyen-checkout';

/** Adyen's default due date for a boleto when the request gives none. */
const DEFAULT_DUE_DAYS = 5;
const DAY = 86_400_000;

const refuse = (errorCode: string, message: string, status = 422, errorType = 'validation'): AdyenAnswerError =>
  new AdyenAnswerError({ status, errorCode, message, errorType });

const text = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/**
 * `POST /payments` with `paymentMethod.type = boletobancario` at the sandbox's Adyen face. The
 * request is checked as Adyen checks it (422 `ServiceError` for a missing or invalid field), the
 * boleto is issued in the same sandbox boleto state as the `generic` face
 * (SandboxBoletoService, marked with its pspReference and the merchant's reference), and the
 * answer is `PresentToShopper` with a `voucher` action: its `reference` is the digitable line,
 * `downloadUrl` the sandbox's page of the boleto (where the sandbox bank pays it), `expiresAt`
 * the end of the due day. The due date is `deliverAt` (or the deprecated `deliveryDate`),
 * otherwise five days on. Paying it in the sandbox sends an AUTHORISATION webhook.
 * `Idempotency-Key` is the boleto's key: a retry answers the same boleto.
 */
@Injectable()
export class SandboxAdyenBoletos {
  constructor(
    private readonly boletos: SandboxBoletoService,
    private readonly adapterHost: HttpAdapterHost,
    private readonly clock: Clock,
  ) {}

  async pay(body: Record<string, any>, idempotencyKey: string | undefined, merchantAccount: string): Promise<AdyenPaymentResponse> {
    const checked = this.check(body, merchantAccount);
    let issued;
    try {
      issued = await this.boletos.create(
        {
          transactionId: idempotencyKey ? `adyen:${idempotencyKey}` : `adyen:${randomUUID()}`,
          merchantId: merchantAccount,
          amountCents: checked.amount.value,
          dueDate: checked.dueDate,
          payer: { name: checked.name, taxId: checked.taxId },
        },
        { merchantReference: body.reference },
      );
    } catch (e) {
      if (e instanceof CodedError && e.code === 'transaction_id_reused')
        throw refuse('704', 'Request already processed or in progress with a different body for this Idempotency-Key');
      if (e instanceof CodedError && e.code === 'boleto_not_payable')
        throw refuse('14_007', 'Invalid payment method details: the due date is in the past');
      throw e;
    }
    const psp = pspReferenceOf(issued.boletoId);
    return {
      pspReference: psp,
      resultCode: 'PresentToShopper',
      merchantReference: body.reference,
      amount: checked.amount,
      action: {
        type: 'voucher',
        paymentMethodType: 'boletobancario',
        reference: formatLine(issued.digitableLine),
        downloadUrl: `${selfOrigin(this.adapterHost)}/sandbox/boletos/${encodeURIComponent(issued.boletoId)}`,
        expiresAt: `${issued.dueDate}T23:59:59`,
        initialAmount: checked.amount,
        totalAmount: checked.amount,
        merchantName: merchantAccount,
        merchantReference: body.reference,
        shopperName: checked.name,
      },
    };
  }

  /** Adyen's checks of a boleto request, in its order; answers what the boleto is made of. */
  private check(body: Record<string, any>, merchantAccount: string) {
    if (!body || typeof body !== 'object') throw refuse('702', 'Structure error: the body is not a PaymentRequest');
    if (body.merchantAccount !== merchantAccount) throw refuse('901', 'Invalid Merchant Account', 403, 'security');
    if (!text(body.reference)) throw refuse('130', "Required field 'reference' is not provided.");
    if (!text(body.returnUrl)) throw refuse('14_006', "Required field 'returnUrl' is not provided.");
    const amount = body.amount as AdyenAmount | undefined;
    if (!amount || !Number.isSafeInteger(amount.value) || amount.value <= 0) throw refuse('137', 'Invalid amount specified');
    if (amount.currency !== 'BRL') throw refuse('138', 'Unsupported currency specified');
    const name = body.shopperName;
    if (!name || !text(name.firstName) || !text(name.lastName))
      throw refuse('14_007', "Required field 'shopperName.firstName' or 'shopperName.lastName' is not provided.");
    const taxId = typeof body.socialSecurityNumber === 'string' ? body.socialSecurityNumber.replace(/[.\-/\s]/g, '') : '';
    if (!taxId) throw refuse('14_007', "Required field 'socialSecurityNumber' is not provided.");
    if (!isValidTaxId(taxId)) throw refuse('14_007', "Field 'socialSecurityNumber' is not a valid CPF or CNPJ.");
    const a = body.billingAddress;
    for (const field of ['street', 'houseNumberOrName', 'city', 'postalCode', 'country'])
      if (!a || !text(a[field])) throw refuse('14_007', `Required field 'billingAddress.${field}' is not provided.`);
    if (a.country !== 'BR') throw refuse('14_007', "Field 'billingAddress.country' must be BR for boletobancario.");
    const when = body.deliverAt ?? body.deliveryDate;
    let dueDate = saoPauloDate(new Date(this.clock.now().getTime() + DEFAULT_DUE_DAYS * DAY));
    if (when !== undefined) {
      const day = typeof when === 'string' ? /^(\d{4}-\d{2}-\d{2})T/.exec(when)?.[1] : undefined;
      if (!day || Number.isNaN(Date.parse(when))) throw refuse('702', "Field 'deliverAt' is not a valid date-time.");
      dueDate = day;
    }
    return { amount: { currency: 'BRL', value: amount.value }, name: `${name.firstName.trim()} ${name.lastName.trim()}`, taxId, dueDate };
  }
}
