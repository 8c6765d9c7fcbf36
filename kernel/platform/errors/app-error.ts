import { BoletoError, BoletoErrorCode } from '../../common/formats/boleto';
import { BrCodeError, BrCodeErrorCode } from '../../common/formats/brcode';
import { CodedError } from '../../common/formats/coded-error';
import { MoneyError, MoneyErrorCode } from '../../common/formats/money';
import { InvalidCardNumber } from '../../common/formats/pan';

/**
 * The one exception type for business and request rules. Each module declares its codes and
 * their HTTP statuses in one table (`defineErrors`); the global filter turns any AppError into
 * the error envelope. Never `throw new Error` for a rule a caller can break.
 */
export interface ErrorExtras {
  details?: ErrorDetail[];
  ip?: string;
  headers?: Record<string, string>;
  /** Extra top-level fields of the body (for example the RFC 6749 token errors). */
  body?: Record<string, unknown>;
}

export interface ErrorDetail {
  field: string;
  message: string;
  code?: string;
}

/** An API error: a code of a module's table, with the HTTP status that table gives it. */
export class AppError extends CodedError<string> {
  constructor(
    readonly status: number,
    code: string,
    message: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(code, message);
  }
}

export type ErrorTable<C extends string> = Readonly<Record<C, number>>;

export interface ErrorFactory<C extends string> {
  readonly table: ErrorTable<C>;
  error(code: C, message: string, extras?: ErrorExtras): AppError;
}

/** Every code table defined so far (each module's, on import): the OpenAPI document lists them. */
const TABLES: ErrorTable<string>[] = [];

type ErrorClass = abstract new (...args: any[]) => CodedError<string>;

/** Each domain error class a module registered, with the status of each of its codes. */
const DOMAIN: { type: ErrorClass; table: ErrorTable<string> }[] = [];

/**
 * A module registers a domain error class (a CodedError raised by its pure rules, formats or
 * provider ports) with the HTTP status of each of its codes; `table` is a Record over the
 * class's code union, so a code added to the class and not to the table does not compile. The
 * exception filter answers such an error from here: no catch-and-rethrow needed to reach the
 * envelope. Codes below 500 are listed in the OpenAPI document like the API tables' codes.
 */
export function registerDomainErrors<C extends string>(type: abstract new (...args: any[]) => CodedError<C>, table: ErrorTable<C>): void {
  DOMAIN.push({ type, table });
  const documented = Object.fromEntries(Object.entries<number>(table).filter(([, s]) => s < 500));
  if (Object.keys(documented).length) DOC_TABLES.push(documented);
}

/** The status a registered domain error class gives this error (undefined: its class is not registered). */
export function statusOfDomainError(err: CodedError<string>): number | undefined {
  for (const d of DOMAIN) if (err instanceof d.type && err.code in d.table) return d.table[err.code];
  return undefined;
}

/** Whether a domain error class has been registered (the exhaustiveness test asks). */
export function isRegisteredDomainError(type: ErrorClass): boolean {
  return DOMAIN.some((d) => d.type === type || type.prototype instanceof d.type);
}

/** Tables listed in the document besides the API tables: domain codes a caller can see. */
const DOC_TABLES: ErrorTable<string>[] = [];

/** The status a code has in the module tables (undefined: no table has it). */
export function statusOfCode(code: string): number | undefined {
  for (const t of TABLES) if (code in t) return t[code];
  return undefined;
}

/** Every known error code answered with `status`, sorted. */
export function errorCodesWithStatus(status: number): string[] {
  const codes = new Set<string>();
  for (const t of [...TABLES, ...DOC_TABLES]) for (const [code, s] of Object.entries(t)) if (s === status) codes.add(code);
  return [...codes].sort();
}

export function defineErrors<C extends string>(table: ErrorTable<C>): ErrorFactory<C> {
  TABLES.push(table);
  return {
    table,
    error: (code, message, extras) => new AppError(table[code], code, message, extras),
  };
}

/** Codes of the platform kernel. */
export const PlatformErrors = defineErrors({
  validation_error: 400,
  malformed_json: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  unprocessable_entity: 422,
  rate_limited: 429,
  internal_error: 500,
  database_unavailable: 503,
  service_unavailable: 503,
});

export type PlatformErrorCode = keyof typeof PlatformErrors.table;

/**
 * Every code of every module's table: each `*.errors.ts` merges its table's codes in (`declare
 * module … interface ErrorCodes`). `@ApiErrors` takes only these, so the documented codes cannot
 * drift from the tables the filter answers from.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ErrorCodes extends Record<PlatformErrorCode, true> {}
export type ErrorCode = Extract<keyof ErrorCodes, string>;

/** The status → code used when a framework error carries only a status. */
export const CODE_BY_STATUS: Record<number, PlatformErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  429: 'rate_limited',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** The shared formats' errors (money, Pix BR Code, boleto, card numbers): each is the caller's input. */
registerDomainErrors<MoneyErrorCode>(MoneyError, {
  amount_not_a_number: 400,
  amount_negative: 400,
  amount_too_many_decimals: 400,
  amount_too_large: 400,
});
registerDomainErrors<BrCodeErrorCode>(BrCodeError, {
  brcode_key_or_url_required: 400,
  brcode_key_invalid: 400,
  brcode_url_invalid: 400,
  brcode_description_invalid: 400,
  brcode_amount_invalid: 400,
  brcode_txid_invalid: 400,
  brcode_merchant_name_invalid: 400,
  brcode_merchant_city_invalid: 400,
  brcode_field_too_long: 400,
  brcode_malformed: 400,
  brcode_crc_mismatch: 400,
  brcode_not_pix: 400,
});
registerDomainErrors<BoletoErrorCode>(BoletoError, {
  boleto_bank_code_invalid: 400,
  boleto_amount_invalid: 400,
  boleto_free_field_invalid: 400,
  boleto_due_date_invalid: 400,
  boleto_due_date_out_of_range: 400,
  boleto_factor_invalid: 400,
  boleto_barcode_invalid: 400,
  boleto_line_invalid: 400,
  boleto_barcode_dv_mismatch: 400,
  boleto_line_dv_mismatch: 400,
});
registerDomainErrors(InvalidCardNumber, { invalid_pan: 400 });
