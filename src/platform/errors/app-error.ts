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

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export type ErrorTable<C extends string> = Readonly<Record<C, number>>;

export interface ErrorFactory<C extends string> {
  readonly table: ErrorTable<C>;
  error(code: C, message: string, extras?: ErrorExtras): AppError;
}

/** Every code table defined so far (each module's, on import): the OpenAPI document lists them. */
const TABLES: ErrorTable<string>[] = [];

/** The status a code has in the module tables (undefined: no table has it). */
export function statusOfCode(code: string): number | undefined {
  for (const t of TABLES) if (code in t) return t[code];
  return undefined;
}

/** Every known error code answered with `status`, sorted. */
export function errorCodesWithStatus(status: number): string[] {
  const codes = new Set<string>();
  for (const t of TABLES) for (const [code, s] of Object.entries(t)) if (s === status) codes.add(code);
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
