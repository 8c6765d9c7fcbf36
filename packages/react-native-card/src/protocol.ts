import type { ServiceCardErrorCode, ServiceCardTokenizedResult } from './types';

/**
 * Message protocol between the hosted card page and the component.
 *
 * The hosted page posts JSON strings with `window.ReactNativeWebView.postMessage(...)`.
 * Every message may carry the protocol version `"v": 1`; when present it must be 1.
 */
export const SERVICE_CARD_PROTOCOL_VERSION = 1 as const;
export type ServiceCardProtocolVersion = typeof SERVICE_CARD_PROTOCOL_VERSION;

/** `{"type":"ready","requestId"?}`: the page validated the session and is interactive. */
export interface ServiceCardReadyMessage {
  v?: ServiceCardProtocolVersion;
  type: 'ready';
  requestId?: string;
}

/** `{"type":"success","result":{...}}`: tokenization finished. */
export interface ServiceCardSuccessMessage {
  v?: ServiceCardProtocolVersion;
  type: 'success';
  result: ServiceCardTokenizedResult;
}

/** Error codes the hosted page itself may send. The other codes are produced by the component. */
export type ServiceCardPageErrorCode = Extract<ServiceCardErrorCode, 'token_expired' | 'validation_error' | 'tokenization_failed'>;

export const SERVICE_CARD_PAGE_ERROR_CODES: readonly ServiceCardPageErrorCode[] = Object.freeze([
  'token_expired',
  'validation_error',
  'tokenization_failed',
]);

/** `{"type":"error","error":{code, message, requestId?, retryable?}}`. */
export interface ServiceCardErrorMessage {
  v?: ServiceCardProtocolVersion;
  type: 'error';
  error: {
    code: ServiceCardPageErrorCode;
    message: string;
    requestId?: string;
    retryable?: boolean;
  };
}

/** Any message the hosted page may post. */
export type ServiceCardHostedMessage = ServiceCardReadyMessage | ServiceCardSuccessMessage | ServiceCardErrorMessage;

export type ServiceCardMessageType = ServiceCardHostedMessage['type'];

export type ServiceCardParseResult = { ok: true; message: ServiceCardHostedMessage } | { ok: false; reason: string };

/** Upper bound on a message; the real messages are a few hundred bytes. */
export const SERVICE_CARD_MAX_MESSAGE_LENGTH = 16 * 1024;

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function optionalString(obj: Json, key: string): boolean {
  return obj[key] === undefined || typeof obj[key] === 'string';
}

const REQUIRED_RESULT_FIELDS = [
  'slugStoredCard',
  'slugToken',
  'tokenExpirationDate',
  'brand',
  'first4',
  'last4',
  'expirationMonth',
  'expirationYear',
  'requestId',
] as const;

function fail(reason: string): ServiceCardParseResult {
  return { ok: false, reason };
}

/**
 * Parses and validates one message posted by the hosted page. Only the fields
 * of the protocol are kept: unknown fields are dropped, so nothing beyond the
 * documented display values can reach the app.
 */
export function parseServiceCardMessage(data: unknown): ServiceCardParseResult {
  if (typeof data !== 'string') return fail('message is not a string');
  if (data.length > SERVICE_CARD_MAX_MESSAGE_LENGTH) return fail('message too large');

  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return fail('message is not valid JSON');
  }
  if (!isPlainObject(parsed)) return fail('message is not a JSON object');
  if (parsed.v !== undefined && parsed.v !== SERVICE_CARD_PROTOCOL_VERSION) {
    return fail('unsupported protocol version');
  }
  const v = parsed.v === undefined ? {} : { v: SERVICE_CARD_PROTOCOL_VERSION };

  switch (parsed.type) {
    case 'ready': {
      if (!optionalString(parsed, 'requestId')) return fail('ready.requestId must be a string');
      const requestId = parsed.requestId as string | undefined;
      return {
        ok: true,
        message: { ...v, type: 'ready', ...(requestId !== undefined ? { requestId } : {}) },
      };
    }

    case 'success': {
      const r = parsed.result;
      if (!isPlainObject(r)) return fail('success.result must be an object');
      for (const key of REQUIRED_RESULT_FIELDS) {
        if (!isNonEmptyString(r[key])) return fail(`success.result.${key} must be a non-empty string`);
      }
      if (!/^\d{4}$/.test(r.first4 as string)) return fail('success.result.first4 must be 4 digits');
      if (!/^\d{4}$/.test(r.last4 as string)) return fail('success.result.last4 must be 4 digits');
      if (!optionalString(r, 'nickname')) return fail('success.result.nickname must be a string');
      const result: ServiceCardTokenizedResult = {
        slugStoredCard: r.slugStoredCard as string,
        slugToken: r.slugToken as string,
        tokenExpirationDate: r.tokenExpirationDate as string,
        brand: r.brand as string,
        first4: r.first4 as string,
        last4: r.last4 as string,
        expirationMonth: r.expirationMonth as string,
        expirationYear: r.expirationYear as string,
        requestId: r.requestId as string,
      };
      if (r.nickname !== undefined) result.nickname = r.nickname as string;
      return { ok: true, message: { ...v, type: 'success', result } };
    }

    case 'error': {
      const e = parsed.error;
      if (!isPlainObject(e)) return fail('error.error must be an object');
      if (!(SERVICE_CARD_PAGE_ERROR_CODES as readonly unknown[]).includes(e.code)) {
        return fail('error.error.code is not a hosted page error code');
      }
      if (typeof e.message !== 'string') return fail('error.error.message must be a string');
      if (!optionalString(e, 'requestId')) return fail('error.error.requestId must be a string');
      if (e.retryable !== undefined && typeof e.retryable !== 'boolean') {
        return fail('error.error.retryable must be a boolean');
      }
      const error: ServiceCardErrorMessage['error'] = {
        code: e.code as ServiceCardPageErrorCode,
        message: e.message,
      };
      if (e.requestId !== undefined) error.requestId = e.requestId as string;
      if (e.retryable !== undefined) error.retryable = e.retryable as boolean;
      return { ok: true, message: { ...v, type: 'error', error } };
    }

    default:
      return fail('unknown message type');
  }
}
