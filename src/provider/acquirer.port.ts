/**
 * Port: the acquirer (card, Pix and boleto processing). Links reach Pix through PixChargesPort
 * (pix-charges.port.ts), whose `service` adapter calls `createPixCharge` here. Bound to an HTTP client that reaches
 * `ACQUIRER_URL` (by default the sandbox app's /sandbox/acquirer, at SANDBOX_URL) through
 * ResilientHttp, so breakers and timeouts are real. Links and cards both use it; neither
 * imports the other.
 */
export type CardCaptureMode = 'SALE' | 'PREAUTH';

export interface CardAuthorizationRequest {
  /** Our transaction id; the acquirer treats a repeat as the same transaction (idempotent). */
  transactionId: string;
  merchantId: string;
  amountCents: number;
  installments: number;
  capture: CardCaptureMode;
  card: { pan: string; expMonth: number; expYear: number; cvv?: string; holderName?: string };
  threeDs?: { cavv?: string; eci?: string; dsTransactionId?: string; status?: string };
}

export interface CardAuthorizationResult {
  acquirerTransactionId: string;
  /** ACCEPTED (sale approved), PREAUTH (authorized, not captured), AUTH_REJECTED, FAILED. */
  status: 'ACCEPTED' | 'PREAUTH' | 'AUTH_REJECTED' | 'FAILED';
  reason?: string;
  authorizationCode?: string;
}

export interface PixChargeRequest {
  transactionId: string;
  merchantId: string;
  /** The seller's name, for the BR Code's merchant name field (59), which the payer's bank shows. */
  merchantName?: string;
  amountCents: number;
  payerName?: string;
  /** The payer's CPF or CNPJ when known (API Pix: the cob's devedor); not sent to the acquirer. */
  payerTaxId?: string;
  expiresInSeconds: number;
}

export interface PixChargeResult {
  txid: string;
  brCode: string;
  expiresAt: string;
  status: 'PENDING';
}

export interface BoletoRequest {
  transactionId: string;
  merchantId: string;
  amountCents: number;
  dueDate: string;
  payer: { name: string; taxId: string; address?: BoletoPayerAddress };
}

/** The payer's address printed on the boleto (Adyen requires a `billingAddress`; links do not collect one). */
export interface BoletoPayerAddress {
  street: string;
  number: string;
  city: string;
  /** Two letters (SP, RJ…). */
  state: string;
  /** CEP, 8 digits. */
  postalCode: string;
}

export interface BoletoResult {
  boletoId: string;
  digitableLine: string;
  barcode: string;
  dueDate: string;
  /** The Pix QR printed on the boleto (paying it gives PAID_PIX); absent when the acquirer prints none (Adyen). */
  pixBrCode?: string;
  /** Where the payer downloads the printable boleto at the acquirer (Adyen's voucher `downloadUrl`). */
  downloadUrl?: string;
  status: 'PENDING';
}

/** A refund of (part of) a captured card payment. */
export interface CardRefundRequest {
  /** Our refund id: the acquirer's idempotency key and reference for this refund. */
  refundId: string;
  /** The acquirer's id of the payment (its pspReference on Adyen). */
  acquirerTransactionId: string;
  amountCents: number;
}

/**
 * The acquirer's first answer to a refund: taken (PENDING, the verdict comes by notification, as
 * Adyen's `received` always is), or already decided. `acquirerRefundId` is the acquirer's own id.
 */
export interface CardRefundResult {
  acquirerRefundId: string;
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  reason?: string;
}

export abstract class AcquirerPort {
  abstract authorizeCard(req: CardAuthorizationRequest): Promise<CardAuthorizationResult>;
  abstract capture(acquirerTransactionId: string, amountCents?: number): Promise<{ status: 'CAPTURED' }>;
  abstract void(acquirerTransactionId: string): Promise<{ status: 'VOIDED' }>;
  /** Refunds part or all of a captured payment, once per `refundId` however often it is called. */
  abstract refundCard(req: CardRefundRequest): Promise<CardRefundResult>;
  abstract createPixCharge(req: PixChargeRequest): Promise<PixChargeResult>;
  abstract createBoleto(req: BoletoRequest): Promise<BoletoResult>;

  /**
   * The authorization made for our `transactionId`, or null when the acquirer has none
   * (reconciliation of an attempt whose answer was lost). Not abstract: implementations that
   * cannot look up keep this default.
   */
  findCardAuthorization(_transactionId: string): Promise<CardAuthorizationResult | null> {
    return Promise.reject(new Error('this acquirer cannot look up card authorizations'));
  }

  /**
   * Makes sure an attempt whose answer never came holds no money at the acquirer: cancels
   * whatever it authorized for our `transactionId` (Adyen's technical cancel, `POST /cancels`
   * by merchant reference), or confirms it has nothing. Resolves once the acquirer took the
   * cancel; throws when it cannot be asked.
   */
  cancelUnanswered(_transactionId: string): Promise<void> {
    return Promise.reject(new Error('this acquirer cannot cancel an attempt by our reference'));
  }
}
