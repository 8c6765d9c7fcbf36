/**
 * Code a webhook receiver can paste: plain Node.js (CommonJS, `node:crypto` only). These exact
 * strings go into docs/guide/webhooks.md; receiver-examples.spec.ts runs them verbatim against bodies made
 * by ./signing and ./sealing. Keep them free of backticks and `${`.
 */

/** Verifies `X-Service-Signature` of an acquiring webhook (see ./signing). */
export const VERIFY_SIGNATURE_SNIPPET = `const crypto = require('node:crypto');

// rawBody: the request body exactly as received (Buffer or string), before JSON parsing.
// headerValue: the X-Service-Signature header, "sha256=<hex>".
// secret: the signing secret returned once by PUT /v1/banking/webhooks/acquiring.
// While a secret rotation is in progress, the previous secret's signature arrives in
// X-Service-Signature-Previous, in the same format.
function verifyServiceSignature(rawBody, headerValue, secret) {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(String(headerValue || '').trim());
  if (!match) return false;
  const expected = crypto.createHmac('sha256', secret).update(rawBody).digest();
  const received = Buffer.from(match[1], 'hex');
  return crypto.timingSafeEqual(expected, received);
}
`;

/** Opens a sealed recurring-debit webhook body (see ./sealing). */
export const OPEN_SEALED_BODY_SNIPPET = `const crypto = require('node:crypto');

// body: the request body {"keyId","iv","ciphertext","tag"} (parsed object or raw JSON text).
// base64Key: the encryptionKey returned once by PUT /v1/banking/webhooks/pix-automatic
// (pick it by body.keyId if you keep more than one).
// Returns the event {"id","event_type","idTx","occurredAt","data"}; throws if the key is
// wrong or the body was altered.
function openSealedBody(body, base64Key) {
  const sealed = typeof body === 'string' || Buffer.isBuffer(body) ? JSON.parse(body) : body;
  const key = Buffer.from(base64Key, 'base64');
  const iv = Buffer.from(sealed.iv, 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, iv, { authTagLength: 16 });
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  const plaintext = Buffer.concat([
    decipher.update(Buffer.from(sealed.ciphertext, 'base64')),
    decipher.final(),
  ]);
  return JSON.parse(plaintext.toString('utf8'));
}
`;
