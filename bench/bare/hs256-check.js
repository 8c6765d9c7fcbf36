// The hand-rolled HS256 check both auth baselines run (bare node:http and the Nest floor), so the
// two compare frameworks, not checks: createHmac + timingSafeEqual, key decoded once.
const { createHmac, createSecretKey, timingSafeEqual } = require('node:crypto');

/** `keys`: JWT_SIGNING_KEYS ("kid:secret,…"); the first key is the one checked. Returns claims or null. */
function hs256Checker(keys) {
  const [kid, secret] = keys.split(',')[0].split(/:(.*)/s);
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid })).toString('base64url');
  return function verify(auth) {
    if (!auth || !auth.startsWith('Bearer ')) return null;
    const [h, p, s] = auth.slice(7).split('.');
    if (h !== header || !p || !s) return null;
    const sig = Buffer.from(s, 'base64url');
    const expected = createHmac('sha256', key).update(`${h}.${p}`).digest();
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) return null;
    const c = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    return c.exp > Date.now() / 1000 ? c : null;
  };
}

module.exports = { hs256Checker };
