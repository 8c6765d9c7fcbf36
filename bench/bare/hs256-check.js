// The bearer check every floor runs: the service's own compiled HS256 codec
// (dist/src/auth/jwt/hs256.js, the class the gateway's AccessTokenCodec wraps), fed the same
// JWT_SIGNING_KEYS parsed by the service's own parser and the same issuer. So a floor verifies a
// token exactly as the service does: the same strict parse, the same HMAC, and the same store of
// verified tokens (each token's signature checked once, its time checked on every call). When
// the codec changes, the floors follow; there is no second implementation to drift.
const { join } = require('node:path');

const { Hs256Codec } = require(join(__dirname, '../../dist/src/auth/jwt/hs256.js'));
const { parseJwtKeys } = require(join(__dirname, '../../dist/src/auth/auth.config.js'));

/**
 * `keys`: JWT_SIGNING_KEYS ("kid:secret,…", newest first, as the service reads it); `issuer`:
 * the service's JWT_ISSUER (default `payments-platform`). Returns `verify(authorizationHeader)`:
 * the token's claims, or null when the header is not `Bearer <a live token of ours>`.
 */
function hs256Checker(keys, issuer = process.env.JWT_ISSUER || 'payments-platform') {
  const problems = [];
  const parsed = parseJwtKeys(keys, problems, 16);
  if (problems.length) throw new Error(`hs256Checker: ${problems.join('; ')}`);
  const codec = new Hs256Codec(parsed, issuer);
  return function verify(auth) {
    if (typeof auth !== 'string' || !auth.startsWith('Bearer ')) return null;
    const r = codec.verify(auth.slice(7), Math.floor(Date.now() / 1000));
    return r.ok ? r.claims : null;
  };
}

module.exports = { hs256Checker };
