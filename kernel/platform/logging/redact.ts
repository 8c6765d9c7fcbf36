import { luhnValid } from '../../common/formats/card';

/**
 * Deep redaction for anything that reaches a log line: secrets by key name at any depth, and
 * by value shape wherever they hide (PEM private keys, bearer tokens, JWTs, card numbers).
 */
const SECRET_KEYS = new Set(
  [
    'authorization',
    'proxy-authorization',
    'cookie',
    'set-cookie',
    'x-admin-key',
    'client_secret',
    'clientsecret',
    'secret',
    'password',
    'passwd',
    'access_token',
    'accesstoken',
    'refresh_token',
    'token',
    'id_token',
    'private_key',
    'privatekey',
    'privatekeypem',
    'cardnumber',
    'card_number',
    'pan',
    'number',
    'cvv',
    'cvc',
    'cvv2',
    'securitycode',
    'security_code',
    'encryptionkey',
    'encryption_key',
    'signingsecret',
    'webhooksecret',
    'encryptedclientsecret',
    'encryptedclientid',
    'otp',
    'code_verifier',
  ].map((k) => k.toLowerCase()),
);

export const REDACTED = '[REDACTED]';

const PEM_PRIVATE = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\b/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const DIGIT_RUN = /(?<![A-Za-z0-9_])(?:\d[ -]?){12,18}\d(?![A-Za-z0-9_])/g;

export function redactString(s: string): string {
  if (s.length < 12) return s;
  let out = s.replace(PEM_PRIVATE, REDACTED).replace(BEARER, `$1 ${REDACTED}`).replace(JWT, REDACTED);
  out = out.replace(DIGIT_RUN, (m) => {
    const digits = m.replace(/[ -]/g, '');
    return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? REDACTED : m;
  });
  return out;
}

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

export function redactDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 12) return '[Depth]';
  if (seen.has(value as object)) return '[Circular]';
  seen.add(value as object);
  if (Buffer.isBuffer(value)) return `[Buffer ${value.length}]`;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1, seen));
  if (value instanceof Error) {
    return { type: value.name, message: redactString(value.message), stack: value.stack ? redactString(value.stack) : undefined };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretKey(k) && v !== undefined && v !== null && v !== '' ? REDACTED : redactDeep(v, depth + 1, seen);
  }
  return out;
}
