import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Adyen Checkout API v72 and Adyen's standard webhooks, as far as the card edge uses them: the
 * wire shapes both the service's adapter and the sandbox's Adyen face speak (the vendored
 * OpenAPI files in test/fixtures/adyen are the contract; the tests validate every exchange
 * against them). Amounts are minor units (centavos) in `BRL`.
 */
export interface AdyenAmount {
  currency: string;
  value: number;
}

/** `POST /payments` with raw card data (`scheme`), the subset this service sends. */
export interface AdyenPaymentRequest {
  merchantAccount: string;
  reference: string;
  amount: AdyenAmount;
  returnUrl: string;
  paymentMethod: {
    type: 'scheme';
    number: string;
    expiryMonth: string;
    expiryYear: string;
    cvc?: string;
    holderName?: string;
  };
  installments?: { value: number };
  shopperInteraction?: 'Ecommerce';
  recurringProcessingModel?: string;
  /** `manualCapture: "true"` holds the authorization for a later capture (our PREAUTH). */
  additionalData?: Record<string, string>;
  captureDelayHours?: number;
  /** 3DS done by the service's own 3DS server, passed as an external MPI's result. */
  mpiData?: { cavv?: string; eci?: string; dsTransID?: string; threeDSVersion?: string; authenticationResponse?: string };
  shopperName?: { firstName: string; lastName: string };
  socialSecurityNumber?: string;
  countryCode?: string;
}

/** Adyen's `BillingAddress`: every field required when sent; `stateOrProvince` is two letters in Brazil. */
export interface AdyenBillingAddress {
  street: string;
  houseNumberOrName: string;
  city: string;
  postalCode: string;
  stateOrProvince?: string;
  country: string;
}

/**
 * `POST /payments` for a boleto bancário: the payer's name, CPF/CNPJ and address printed on it,
 * its due date as `deliverAt` (`deliveryDate` before v70), no card data.
 */
export interface AdyenBoletoPaymentRequest {
  merchantAccount: string;
  reference: string;
  amount: AdyenAmount;
  returnUrl: string;
  paymentMethod: { type: 'boletobancario' };
  shopperName: { firstName: string; lastName: string };
  socialSecurityNumber: string;
  billingAddress: AdyenBillingAddress;
  deliverAt: string;
  countryCode: 'BR';
  shopperStatement?: string;
}

/** The `voucher` action of a `PresentToShopper` answer (`CheckoutVoucherAction`): for a boleto, `reference` is its digitable line. */
export interface AdyenVoucherAction {
  type: 'voucher';
  paymentMethodType?: string;
  reference?: string;
  downloadUrl?: string;
  expiresAt?: string;
  initialAmount?: AdyenAmount;
  totalAmount?: AdyenAmount;
  merchantName?: string;
  merchantReference?: string;
  shopperName?: string;
}

export type AdyenResultCode =
  | 'AuthenticationFinished'
  | 'AuthenticationNotRequired'
  | 'Authorised'
  | 'Cancelled'
  | 'ChallengeShopper'
  | 'Error'
  | 'IdentifyShopper'
  | 'PartiallyAuthorised'
  | 'Pending'
  | 'PresentToShopper'
  | 'Received'
  | 'RedirectShopper'
  | 'Refused'
  | 'Success';

export interface AdyenPaymentResponse {
  pspReference?: string;
  resultCode?: AdyenResultCode;
  merchantReference?: string;
  amount?: AdyenAmount;
  refusalReason?: string;
  refusalReasonCode?: string;
  additionalData?: Record<string, string>;
  /** What the shopper must do next: a boleto's `voucher` to present, or a `threeDS2` fingerprint or challenge. */
  action?: AdyenVoucherAction | AdyenThreeDs2Action;
  threeDS2Result?: {
    transStatus?: string;
    eci?: string;
    authenticationValue?: string;
    dsTransID?: string;
    threeDSServerTransID?: string;
    messageVersion?: string;
  };
}

/** Adyen's native 3DS2 step (`CheckoutThreeDS2Action`): `token` is Base64 JSON (3DS Method URL, or ACS URL). */
export interface AdyenThreeDs2Action {
  type: 'threeDS2';
  subtype?: string;
  token?: string;
  paymentData?: string;
  paymentMethodType?: string;
}

/** The answer to `/captures`, `/cancels` and `/refunds`: accepted, the outcome comes by webhook. */
export interface AdyenModificationResponse {
  merchantAccount: string;
  paymentPspReference: string;
  pspReference: string;
  reference?: string;
  amount?: AdyenAmount;
  status: 'received';
}

/** Adyen's error answer (`ServiceError`). */
export interface AdyenServiceError {
  status: number;
  errorCode: string;
  message: string;
  errorType: string;
  pspReference?: string;
}

/**
 * Every `eventCode` a notification item of Adyen's standard webhooks may carry (the enum of the
 * vendored Webhooks-v1.yaml; test: adyen-event-codes.map.spec). A receiver still reads the field as
 * a string, since Adyen adds codes; a sender of ours names one of these.
 */
export const ADYEN_EVENT_CODES = [
  'AUTHENTICATION', 'AUTHORISATION', 'AUTHORISATION_ADJUSTMENT', 'AUTORESCUE', 'CANCELLATION', 'CANCEL_AUTORESCUE',
  'CANCEL_OR_REFUND', 'CAPTURE', 'CAPTURE_FAILED', 'CHARGEBACK', 'CHARGEBACK_REVERSED', 'DISPUTE_DEFENSE_PERIOD_ENDED',
  'EXPIRE', 'HANDLED_EXTERNALLY', 'INFORMATION_SUPPLIED', 'ISSUER_COMMENTS', 'ISSUER_RESPONSE_TIMEFRAME_EXPIRED',
  'MANUAL_REVIEW_ACCEPT', 'MANUAL_REVIEW_REJECT', 'NOTIFICATION_OF_CHARGEBACK', 'NOTIFICATION_OF_FRAUD', 'OFFER_CLOSED',
  'ORDER_CLOSED', 'ORDER_OPENED', 'PAIDOUT_REVERSED', 'PAYOUT_DECLINE', 'PAYOUT_EXPIRE', 'PAYOUT_THIRDPARTY', 'POSTPONED_REFUND',
  'PREARBITRATION_LOST', 'PREARBITRATION_OPEN', 'PREARBITRATION_WON', 'RECURRING_CONTRACT', 'REFUND', 'REFUNDED_REVERSED', 'REPORT_AVAILABLE',
  'REFUND_FAILED', 'REFUND_WITH_DATA', 'REQUEST_FOR_INFORMATION', 'SECOND_CHARGEBACK', 'TECHNICAL_CANCEL',
  'VOID_PENDING_REFUND',
] as const; // prettier-ignore
export type AdyenEventCode = (typeof ADYEN_EVENT_CODES)[number];

/** One item of a standard webhook (`NotificationRequestItem`). */
export interface AdyenNotificationItem {
  pspReference: string;
  originalReference?: string;
  merchantAccountCode: string;
  merchantReference: string;
  eventCode: string;
  eventDate: string;
  success: 'true' | 'false';
  amount: AdyenAmount;
  paymentMethod?: string;
  reason?: string;
  additionalData?: Record<string, string>;
}

export interface AdyenNotificationRequest {
  live: 'true' | 'false';
  notificationItems: { NotificationRequestItem: AdyenNotificationItem }[];
}

/** The body a receiver answers so Adyen stops retrying. */
export const ADYEN_ACCEPTED = '[accepted]';

/**
 * The HMAC key as configured: Adyen hands it out as hex (64 hex digits). A value that is not hex
 * (a generated development secret) is read as base64url, so both sides derive the same bytes.
 */
export function adyenHmacKey(configured: string): Buffer {
  return /^(?:[0-9a-fA-F]{2})+$/.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64url');
}

/** Adyen's signing string: eight fields joined by `:`, empty for an absent one. */
export function adyenSigningString(i: AdyenNotificationItem): string {
  return [
    i.pspReference ?? '',
    i.originalReference ?? '',
    i.merchantAccountCode ?? '',
    i.merchantReference ?? '',
    i.amount?.value ?? '',
    i.amount?.currency ?? '',
    i.eventCode ?? '',
    i.success ?? '',
  ].join(':');
}

/** HMAC-SHA256 of the signing string with the key's bytes, Base64 (`additionalData.hmacSignature`). */
export function signAdyenItem(key: Buffer, item: AdyenNotificationItem): string {
  return createHmac('sha256', key).update(adyenSigningString(item), 'utf8').digest('base64');
}

/** Whether the item carries a valid `hmacSignature` for this key (constant-time compare). */
export function verifyAdyenItem(key: Buffer, item: AdyenNotificationItem): boolean {
  if (key.length === 0) return false;
  const given = item?.additionalData?.hmacSignature;
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(signAdyenItem(key, item), 'base64');
  const got = Buffer.from(given, 'base64');
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** `Basic` credentials check (constant time over equal-length digests). */
export function basicAuthMatches(header: string | undefined, username: string, password: string): boolean {
  if (!password || typeof header !== 'string' || !header.startsWith('Basic ')) return false;
  const given = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const a = createHmac('sha256', 'basic').update(given).digest();
  const b = createHmac('sha256', 'basic').update(`${username}:${password}`).digest();
  return timingSafeEqual(a, b);
}

/** Where the service receives Adyen's standard webhooks (the sandbox's Adyen face sends them there by default). */
export const ADYEN_WEBHOOKS_PATH = '/provider/adyen/webhooks';

/** Adyen's 3DS2 tokens and `threeDSResult`: Base64 of a JSON object. */
export function encodeAdyenToken(o: object): string {
  return Buffer.from(JSON.stringify(o), 'utf8').toString('base64');
}

/** The object of a Base64 JSON token, or null when it is not one (or is implausibly long). */
export function decodeAdyenToken(v: unknown): Record<string, unknown> | null {
  if (typeof v !== 'string' || v.length > 8192) return null;
  try {
    const o = JSON.parse(Buffer.from(v, 'base64').toString('utf8'));
    return o && typeof o === 'object' ? o : null;
  } catch {
    return null;
  }
}
