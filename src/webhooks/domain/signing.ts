/**
 * HMAC-SHA256 signatures of acquiring-domain webhook deliveries.
 *
 * Headers of every delivery:
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 of the raw body bytes, exactly as the
 *   spec states, always ONE value, computed with the endpoint's current (newest) secret.
 * - `X-Service-Signature-Previous: sha256=<hex>`: only during a secret rotation's grace
 *   period: the same HMAC computed with the previous secret, so a receiver that has not yet
 *   switched to the new secret keeps verifying. (The spec's header stays single-valued, so
 *   receivers that parse it strictly are not broken by a rotation.)
 * - `X-Service-Webhook-Id`, `X-Service-Timestamp` (Unix seconds) and
 *   `X-Service-Signature-V2: t=<ts>,v1=<hex>`: HMAC-SHA256 of `<id>.<ts>.<raw body>` for
 *   replay protection. During rotation it carries two entries: `t=<ts>,v1=<new>,v1=<old>`;
 *   a receiver accepts the delivery when any v1 entry matches its secret.
 *
 * The HMAC key is the UTF-8 bytes of the secret string exactly as delivered by
 * `PUT /v1/banking/webhooks/acquiring` (it is not base64-decoded).
 * Verification compares digests with `timingSafeEqual` on equal-length buffers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SigningInputError } from './errors';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const SIGNATURE_PREVIOUS_HEADER = 'X-Service-Signature-Previous';
export const SIGNATURE_V2_HEADER = 'X-Service-Signature-V2';
export const WEBHOOK_ID_HEADER = 'X-Service-Webhook-Id';
export const TIMESTAMP_HEADER = 'X-Service-Timestamp';

/** Default accepted distance between the V2 timestamp and the receiver's clock, both ways. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The body bytes exactly as sent on the wire (a string is taken as UTF-8). */
export type RawBody = string | Uint8Array;

/** The endpoint's secrets: `previous` only during a rotation's grace period. */
export interface SigningSecrets {
  current: string;
  previous?: string;
}

export type SignatureFailureReason = 'header_missing' | 'header_malformed' | 'signature_mismatch' | 'timestamp_out_of_tolerance';

export type SignatureCheck = { valid: true } | { valid: false; reason: SignatureFailureReason };

export interface VerifyV2Options {
  /** value of `X-Service-Webhook-Id` (part of the signed message); a malformed id fails as `header_malformed` */
  webhookId: string;
  /** default {@link DEFAULT_TOLERANCE_SECONDS} */
  toleranceSeconds?: number;
  /** default: the current time */
  now?: Date;
}

const WEBHOOK_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** `sha256=<hex HMAC-SHA256 of the raw body>` (value of `X-Service-Signature`). */
export function signV1(secret: string, rawBody: RawBody): string {
  return `sha256=${hmac(secret, [rawBody]).toString('hex')}`;
}

/**
 * `t=<ts>,v1=<hex HMAC of "<id>.<ts>.<body>">` (value of `X-Service-Signature-V2`). Given
 * {@link SigningSecrets} with a previous secret, a second `v1` entry follows for it.
 */
export function signV2(secret: string | SigningSecrets, id: string, timestamp: number, rawBody: RawBody): string {
  const secrets = typeof secret === 'string' ? { current: secret } : secret;
  assertTimestamp(timestamp);
  const message = v2Message(id, timestamp, rawBody);
  const entries = [secrets.current, ...(secrets.previous !== undefined ? [secrets.previous] : [])].map(
    (s) => `v1=${hmac(s, message).toString('hex')}`,
  );
  return [`t=${timestamp}`, ...entries].join(',');
}

/** Every signature header of one delivery (see the file comment). */
export function signatureHeaders(
  secrets: SigningSecrets,
  delivery: { id: string; timestamp: number; rawBody: RawBody },
): Record<string, string> {
  const headers: Record<string, string> = {
    [WEBHOOK_ID_HEADER]: delivery.id,
    [TIMESTAMP_HEADER]: String(delivery.timestamp),
    [SIGNATURE_HEADER]: signV1(secrets.current, delivery.rawBody),
    [SIGNATURE_V2_HEADER]: signV2(secrets, delivery.id, delivery.timestamp, delivery.rawBody),
  };
  if (secrets.previous !== undefined) headers[SIGNATURE_PREVIOUS_HEADER] = signV1(secrets.previous, delivery.rawBody);
  return headers;
}

/** Checks `X-Service-Signature` (or `X-Service-Signature-Previous`) against one secret. */
export function verifyV1(secret: string, rawBody: RawBody, header: string | undefined | null): SignatureCheck {
  const expected = hmac(secret, [rawBody]);
  if (header === undefined || header === null || header.trim() === '') return fail('header_missing');
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return fail('header_malformed');
  return digestEquals(expected, match[1]) ? { valid: true } : fail('signature_mismatch');
}

/**
 * Checks `X-Service-Signature-V2` against one secret: any `v1` entry may match; the timestamp
 * must be within `toleranceSeconds` of `now` (past or future).
 */
export function verifyV2(secret: string, rawBody: RawBody, header: string | undefined | null, options: VerifyV2Options): SignatureCheck {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new SigningInputError('signing_timestamp_invalid', 'toleranceSeconds must be a non-negative number');
  }
  if (typeof secret !== 'string' || secret.length === 0)
    throw new SigningInputError('signing_secret_invalid', 'the signing secret is empty');
  if (header === undefined || header === null || header.trim() === '') return fail('header_missing');
  const parsed = parseV2Header(header);
  if (!parsed || typeof options.webhookId !== 'string' || !WEBHOOK_ID_PATTERN.test(options.webhookId)) return fail('header_malformed');
  const expected = hmac(secret, v2Message(options.webhookId, parsed.timestamp, rawBody));
  let matched = false;
  for (const candidate of parsed.signatures) matched = digestEquals(expected, candidate) || matched;
  if (!matched) return fail('signature_mismatch');
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - parsed.timestamp) > tolerance) return fail('timestamp_out_of_tolerance');
  return { valid: true };
}

/**
 * Parses `t=<digits>,v1=<hex>[,v1=<hex>…]`. Entries with other names are ignored (room for
 * future schemes); exactly one `t` and at least one well-formed `v1` are required.
 */
export function parseV2Header(header: string): { timestamp: number; signatures: string[] } | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (name === 'v1') {
      if (!HEX_DIGEST.test(value)) return null;
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

// ---------------------------------------------------------------------------------------------

function fail(reason: SignatureFailureReason): SignatureCheck {
  return { valid: false, reason };
}

/**
 * HMAC-SHA256 keyed by the secret's UTF-8 bytes. The key is given to `createHmac` as the string
 * itself (Node encodes a string key as UTF-8: the same bytes), not as a Buffer: on Node 24 a
 * Buffer key costs about 7 µs more per HMAC (the key is first tested as a KeyObject), which was a
 * sixth of the delivery worker's CPU with three HMACs per delivery.
 */
function hmac(secret: string, parts: RawBody[]): Buffer {
  if (typeof secret !== 'string' || secret.length === 0)
    throw new SigningInputError('signing_secret_invalid', 'the signing secret is empty');
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

function v2Message(id: string, timestamp: number, rawBody: RawBody): RawBody[] {
  if (typeof id !== 'string' || !WEBHOOK_ID_PATTERN.test(id)) {
    throw new SigningInputError('webhook_id_invalid', 'a webhook id must match [A-Za-z0-9_-]{1,128}');
  }
  return [`${id}.${timestamp}.`, rawBody];
}

function assertTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new SigningInputError('signing_timestamp_invalid', 'the timestamp must be whole Unix seconds');
  }
}

/** Constant-time comparison of a computed digest with a hex digest from a header. */
function digestEquals(expected: Buffer, receivedHex: string): boolean {
  const received = Buffer.from(receivedHex, 'hex');
  if (received.length !== expected.length) return false;
  return timingSafeEqual(expected, received);
}
