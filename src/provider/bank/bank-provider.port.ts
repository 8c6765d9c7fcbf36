/**
 * Port: the banking provider that stands behind recurring Pix debit (Pix Automático). The
 * service never lets a caller reach it; `HttpBankProvider` binds it to `PROVIDER_URL` (by default
 * the sandbox app's bank at SANDBOX_URL, over real HTTP). Calls fail with `ProviderCallError`
 * (`provider_unavailable` when the provider cannot be reached or its breaker is open,
 * `provider_rejected` when it answered 4xx).
 */
export { ProviderCallError } from '../../../kernel/platform/http/resilient-http';

/** Statuses a provider holds for a recurrence (the service's own vocabulary). */
export type BankRecurrenceStatus = 'PENDING' | 'ACCEPTED' | 'ACTIVE' | 'REJECTED' | 'EXPIRED' | 'CANCELLED_RECEIVER' | 'CANCELLED_PAYER';

export interface BankRecurrenceRequest {
  /** The service's id; the provider treats a repeat with the same id as the same recurrence. */
  recurrenceId: string;
  /** Transaction id the provider puts on every event about this recurrence. */
  idTx: string;
  receiver: { id: string; name: string };
  amountCents: number;
  currency: 'BRL';
  periodicity: string;
  firstDueDate: string;
  expirationDate: string | null;
  dayAdjustment: string;
  payerName: string;
  payerTaxId: string;
  description: string | null;
  /** Push the authorization request to the payer's bank (API Pix Jornada 1), when given. */
  payerBankAccount?: { ispb: string; branch?: string; account: string };
}

export interface BankRecurrenceCreated {
  recurrenceId: string;
  status: BankRecurrenceStatus;
  /** Where the payer authorizes the debit (their bank's page, or the location of the QR they read). */
  authorizationUrl: string;
  /** The provider's own id of the recurrence when it assigns one (API Pix's idRec), kept with ours. */
  providerRef?: string;
}

export interface BankBillingRequest {
  /** Transaction id of the billing; the provider treats a repeat as the same billing. */
  idTx: string;
  billingId: string;
  recurrenceId: string;
  amountCents: number;
  currency: 'BRL';
  dueDate: string;
}

/** The nine billing statuses, in the port's vocabulary (the same names the Pix Automático module uses). */
export const BankBillingStatus = {
  PENDING_SEND: 'PENDING_SEND',
  SENT: 'SENT',
  ACTIVE: 'ACTIVE',
  COMPLETED: 'COMPLETED',
  REJECTED: 'REJECTED',
  EXPIRED: 'EXPIRED',
  CANCELLED_RECEIVER: 'CANCELLED_RECEIVER',
  CANCELLED_PAYER: 'CANCELLED_PAYER',
  SEND_FAILED: 'SEND_FAILED',
} as const;
export type BankBillingStatus = (typeof BankBillingStatus)[keyof typeof BankBillingStatus];

/**
 * Per-billing answer of a batch send. `accepted: false` is a refusal (no retry helps), unless
 * `retryable`: the provider could not be reached for this billing (one call per billing, as on
 * API Pix), so it is sent again later like a failed batch.
 */
export interface BankBillingResult {
  idTx: string;
  accepted: boolean;
  retryable?: boolean;
  status?: string;
  reason?: string;
}

/** The Pix limits the bank holds for an account, in cents. */
export interface BankAccountLimits {
  accountId: string;
  pix: { perTransaction: number; daytime: number; nighttime: number };
}

export abstract class BankProvider {
  /** How operators and errors name this provider (BANK_PROVIDER). */
  readonly name: string = 'service';
  /** Whether the provider's protocol has this periodicity (API Pix has five of our seven). */
  supportsPeriodicity(_periodicity: string): boolean {
    return true;
  }
  /** Whether the provider can push the authorization request to the payer's bank (Jornada 1). */
  supportsPushAuthorization(): boolean {
    return false;
  }
  /** Longest one call can take with all its retries (timeouts and waits): how long to lease work sent to it. */
  abstract maxCallMs(): number;
  abstract createRecurrence(req: BankRecurrenceRequest): Promise<BankRecurrenceCreated>;
  abstract getRecurrence(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }>;
  /** The receiver withdraws the recurrence; the provider cancels its open billings with it. Idempotent. */
  abstract cancelRecurrence(recurrenceId: string): Promise<{ recurrenceId: string; status: BankRecurrenceStatus }>;
  /** Sends billings in one call (idempotent per idTx). */
  abstract sendBillings(billings: BankBillingRequest[]): Promise<BankBillingResult[]>;
  /** The receiver cancels one billing. Idempotent; a billing the provider never received stays refused if sent later. */
  abstract cancelBilling(idTx: string, recurrenceId: string): Promise<{ idTx: string; status: string }>;
  /** The account's Pix limits. Not retried: a caller is waiting, and the gateway keeps the last answer. */
  abstract getAccountLimits(accountId: string): Promise<BankAccountLimits>;
}
