import { HttpException } from '@nestjs/common';
import { AppError, CODE_BY_STATUS, ErrorDetail, statusOfDomainError } from './app-error';
import { CodedError } from '../../common/formats/coded-error';
import { sqlStateOf } from '../database/sql';

/** The body of every error answer (except the RFC 6749 token errors, which add their own). */
export interface ErrorEnvelope {
  statusCode: number;
  error: string;
  message: string;
  requestId: string;
  details?: ErrorDetail[];
  ip?: string;
  [extra: string]: unknown;
}

export interface ResolvedError {
  status: number;
  body: Omit<ErrorEnvelope, 'requestId'>;
  headers: Record<string, string>;
  /** Unexpected failures are logged with their stack; expected ones are not. */
  unexpected: boolean;
}

const PG_CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

export function isDatabaseUnavailable(err: any): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = err.code ?? err.driverError?.code;
  if (code && PG_CONNECTION_CODES.has(code)) return true;
  const msg = String(err.message ?? '');
  return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error|DataSource is not initialized|No metadata for/i.test(
    msg,
  );
}

/** Fastify's own errors (body parsing, limits, content type) mapped to stable codes. */
const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'malformed_json', message: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'malformed_json',
    message: 'The request body is empty but Content-Type is application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The request body is larger than 1 MiB' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Unsupported Content-Type; send application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_INVALID_TYPE: { status: 400, code: 'bad_request', message: 'Invalid Content-Type header' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long', message: 'A path parameter is longer than allowed' },
  FST_ERR_BAD_URL: { status: 400, code: 'bad_request', message: 'The URL is not valid (bad percent-encoding)' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'bad_request', message: 'The request could not be routed' },
  FST_ERR_CTP_INVALID_CONTENT_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    message: 'Unsupported Content-Type; send application/json',
  },
};

export function resolveError(err: any): ResolvedError {
  if (err instanceof AppError) {
    const body: ResolvedError['body'] = { statusCode: err.status, error: err.code, message: err.message };
    if (err.extras.details) body.details = err.extras.details;
    if (err.extras.ip) body.ip = err.extras.ip;
    if (err.extras.body) Object.assign(body, err.extras.body);
    return { status: err.status, body, headers: err.extras.headers ?? {}, unexpected: err.status >= 500 };
  }
  if (err instanceof CodedError) {
    // A domain error no caller translated: the status its module registered for its class and
    // code. An unregistered one is a gap (500, logged); past 500 its message stays in the log.
    const status = statusOfDomainError(err) ?? 500;
    const message = status >= 500 ? 'Internal server error' : err.message;
    const error = status >= 500 && statusOfDomainError(err) === undefined ? 'internal_error' : err.code;
    const body: ResolvedError['body'] = { statusCode: status, error, message };
    // a domain error that names the request field it is about answers with it, as validation does
    const field = err.details?.field;
    if (status < 500 && typeof field === 'string') body.details = [{ field, message: err.message, code: err.code }];
    return { status, body, headers: {}, unexpected: status >= 500 };
  }
  const fst = err?.code && FASTIFY_CODES[err.code];
  if (fst)
    return { status: fst.status, body: { statusCode: fst.status, error: fst.code, message: fst.message }, headers: {}, unexpected: false };
  if (err instanceof SyntaxError && /JSON/i.test(err.message)) {
    return {
      status: 400,
      body: { statusCode: 400, error: 'malformed_json', message: 'The request body is not valid JSON' },
      headers: {},
      unexpected: false,
    };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    const res = err.getResponse() as any;
    const raw = typeof res === 'string' ? res : res?.message;
    let code: string = CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
    let message = Array.isArray(raw) ? raw.join('; ') : String(raw ?? err.message);
    if (status === 404 && /^Cannot (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)/.test(message)) {
      code = 'route_not_found';
      message = 'No route matches this method and path';
    }
    // Nest re-wraps Fastify's body-parser errors as plain HttpExceptions, keeping the message.
    if (status === 400 && /json/i.test(message)) {
      code = 'malformed_json';
      message = 'The request body is not valid JSON';
    }
    if (status === 413) message = 'The request body is larger than 1 MiB';
    if (status >= 500) message = 'Internal server error';
    return { status, body: { statusCode: status, error: code, message }, headers: {}, unexpected: status >= 500 };
  }
  const sqlState = sqlStateOf(err);
  if (sqlState === '23505') {
    // a uniqueness rule no caller turned into its own answer: the row exists already
    return {
      status: 409,
      body: { statusCode: 409, error: 'conflict', message: 'It conflicts with something that already exists' },
      headers: {},
      unexpected: true,
    };
  }
  if (sqlState?.startsWith('22')) {
    // a data exception (a value PostgreSQL cannot store) that validation should have refused
    return {
      status: 400,
      body: { statusCode: 400, error: 'bad_request', message: 'A value is out of the range this field can hold' },
      headers: {},
      unexpected: true,
    };
  }
  if (isDatabaseUnavailable(err)) {
    return {
      status: 503,
      body: { statusCode: 503, error: 'database_unavailable', message: 'The database is unavailable; retry shortly' },
      headers: { 'Retry-After': '1' },
      unexpected: false,
    };
  }
  const status = typeof err?.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  if (status < 500) {
    return {
      status,
      body: { statusCode: status, error: CODE_BY_STATUS[status] ?? 'bad_request', message: String(err.message ?? 'Bad request') },
      headers: {},
      unexpected: false,
    };
  }
  return {
    status: 500,
    body: { statusCode: 500, error: 'internal_error', message: 'Internal server error' },
    headers: {},
    unexpected: true,
  };
}
