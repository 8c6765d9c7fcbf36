import { Injectable } from '@nestjs/common';
import { BoletoError, lineToBarcode } from '../../../../kernel/common/formats/boleto';
import type {
  AdyenBillingAddress,
  AdyenBoletoPaymentRequest,
  AdyenPaymentResponse,
  AdyenVoucherAction,
} from '../../../../kernel/common/protocols/adyen';
import { ProviderCallError } from '../../../../kernel/platform/http/resilient-http';
import type { BoletoPayerAddress, BoletoRequest, BoletoResult } from '../../acquirer.port';
import { AdyenConfig } from './adyen.config';
import { AdyenCheckoutClient } from './adyen-checkout.client';
import { AdyenStore } from './adyen-store';
import { resultMeaning } from './adyen-result.map';

/**
 * The billing address sent when the caller has none (links do not collect an address; Adyen
 * requires `billingAddress` for boletobancario). Every field Adyen requires, marked as not
 * informed; the boleto is still registered in the payer's name and CPF/CNPJ.
 */
export const UNKNOWN_BILLING_ADDRESS: AdyenBillingAddress = {
  street: 'Não informado',
  houseNumberOrName: 'S/N',
  city: 'Não informado',
  postalCode: '00000000',
  country: 'BR',
};

/**
 * Boleto bancário on Adyen Checkout v72: `POST /payments` with `paymentMethod.type =
 * boletobancario`, the payer's name, CPF/CNPJ and address, the due date as `deliverAt`, the
 * amount in centavos and BRL, our transaction id as `reference` and `Idempotency-Key` (a retry
 * gets the same boleto). Adyen answers `PresentToShopper` with a `voucher` action whose
 * `reference` is the digitable line; the 44-digit barcode is derived from it, the voucher's
 * `downloadUrl` is the printable boleto. Adyen's boletos carry no Pix QR. The attempt is
 * recorded first, so the AUTHORISATION webhook of its payment is read as a boleto paid.
 */
@Injectable()
export class AdyenBoletos {
  constructor(
    private readonly adyen: AdyenCheckoutClient,
    private readonly store: AdyenStore,
  ) {}

  async create(req: BoletoRequest): Promise<BoletoResult> {
    await this.store.beginBoletoAttempt(req.transactionId, req.amountCents);
    const res = await this.adyen.post<AdyenPaymentResponse>(
      'createBoleto',
      '/payments',
      boletoPaymentRequest(req, this.adyen.config),
      req.transactionId,
    );
    await this.store.answered(req.transactionId, res?.pspReference ?? null, res?.resultCode ?? null);
    return boletoResultOf(res ?? {}, req.dueDate);
  }
}

/** Our boleto as Adyen's `PaymentRequest`. */
export function boletoPaymentRequest(req: BoletoRequest, config: AdyenConfig): AdyenBoletoPaymentRequest {
  return {
    merchantAccount: config.merchantAccount,
    reference: req.transactionId,
    amount: { currency: 'BRL', value: req.amountCents },
    returnUrl: config.returnUrl,
    paymentMethod: { type: 'boletobancario' },
    shopperName: shopperNameOf(req.payer.name),
    socialSecurityNumber: req.payer.taxId.replace(/\D/g, ''),
    billingAddress: req.payer.address ? billingAddressOf(req.payer.address) : UNKNOWN_BILLING_ADDRESS,
    // End of the due day in São Paulo: the boleto is payable all of that day.
    deliverAt: `${req.dueDate}T23:59:59-03:00`,
    countryCode: 'BR',
  };
}

/** Adyen's answer as our boleto: `PresentToShopper` with a voucher carrying a valid 47-digit line, or the acquirer refused it. */
export function boletoResultOf(res: AdyenPaymentResponse, requestedDueDate: string): BoletoResult {
  const action = res.action as AdyenVoucherAction | undefined;
  if (resultMeaning(res.resultCode).boleto !== 'issued' || action?.type !== 'voucher' || !res.pspReference)
    throw new ProviderCallError('provider_rejected', `Adyen did not issue the boleto (resultCode ${res.resultCode ?? 'none'})`, 422, res);
  const line = (action.reference ?? '').replace(/\D/g, '');
  let barcode: string;
  try {
    barcode = lineToBarcode(line);
  } catch (e) {
    if (!(e instanceof BoletoError)) throw e;
    throw new ProviderCallError('provider_error', `Adyen answered a boleto whose digitable line is not valid: ${e.message}`, 200);
  }
  const due = /^\d{4}-\d{2}-\d{2}/.exec(action.expiresAt ?? '')?.[0] ?? requestedDueDate;
  return {
    boletoId: res.pspReference,
    digitableLine: line,
    barcode,
    dueDate: due,
    ...(action.downloadUrl ? { downloadUrl: action.downloadUrl } : {}),
    status: 'PENDING',
  };
}

/** First word and the rest (Adyen wants both, each at most 80 characters); a single name repeats as the last name. */
export function shopperNameOf(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0] ?? '';
  const last = words.slice(1).join(' ') || first;
  return { firstName: first.slice(0, 80), lastName: last.slice(0, 80) };
}

function billingAddressOf(a: BoletoPayerAddress): AdyenBillingAddress {
  return {
    street: a.street,
    houseNumberOrName: a.number,
    city: a.city,
    postalCode: a.postalCode.replace(/\D/g, ''),
    stateOrProvince: a.state.toUpperCase(),
    country: 'BR',
  };
}
