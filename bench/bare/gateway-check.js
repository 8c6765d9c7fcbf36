// The gateway's work on an authenticated /v1 call, done with the least machinery, for the floors
// of the limits route (bare/auth-limits.js, bare/auth-limits-nest.js). The service does, per
// call: the bearer check (./hs256-check, its own codec and store of verified tokens), the tenant's
// record (a cached copy), the caller's IP against the tenant's allow-list, the key's revocation
// state (a cached answer), one count in the tenant's fixed one-minute window with the RateLimit-*
// headers of the decision, and the account's Pix limits (the bank's answer, cached). A floor that
// skipped any of these would credit the framework with work it never did, so the floors do them
// all: with plain Maps where the service has its TTL caches (an always-fresh hit), and with the
// service's own compiled rate limiter, header builder and CIDR matcher, as hs256-check does for
// the codec, so there is no second implementation to drift.
const { join } = require('node:path');
const { hs256Checker } = require('./hs256-check');

const { RateLimiter, rateLimitHeaders } = require(join(__dirname, '../../dist/src/gateway/rate-limit/rate-limiter.js'));
const { parseCidr, ipInCidrs } = require(join(__dirname, '../../dist/kernel/common/cidr.js'));

const WINDOW_MS = 60_000;
const LIMIT = 1_000_000_000; // the bench raises the tenant's limit out of the way, as here
const ALLOWED = ['127.0.0.1/32', '::1/128'].map(parseCidr); // what the bench's tenant allows
const PIX = { perTransaction: 1000000, daytime: 5000000, nighttime: 100000 };

/**
 * `gate(authorization, ip)` → `{ status, headers?, claims?, decision? }`: 401 for a refused token,
 * 403 for an IP off the list, 429 past the limit, else 200 with the token's claims, the count's
 * decision and its RateLimit-* headers (a floor sends them with its answer, as the service does).
 * Any tenant a valid token names is taken as existing, active and allowing the bench's loopback
 * addresses; no key is revoked.
 */
function gatewayChecker(keys) {
  const verify = hs256Checker(keys);
  const tenants = new Map();
  const revoked = new Set();
  // the service's own limiter on its in-process store (the benches run with REDIS_URL unset): the
  // same window, count and decision, not a copy of them
  const limiter = new RateLimiter({ rateLimitWindowSeconds: WINDOW_MS / 1000, redisUrl: null }, { add() {} }, null);
  return function gate(authorization, ip) {
    const claims = verify(authorization);
    if (!claims) return { status: 401 };
    let tenant = tenants.get(claims.tenant);
    if (!tenant) tenants.set(claims.tenant, (tenant = { cidrs: ALLOWED, decisions: new Map(), active: true, rateKey: `t:${claims.tenant}` }));
    let allowed = tenant.decisions.get(ip); // the service keeps each IP's answer on the record too
    if (allowed === undefined) tenant.decisions.set(ip, (allowed = ipInCidrs(ip, tenant.cidrs)));
    if (!allowed || !tenant.active) return { status: 403 };
    if (revoked.has(claims.kid)) return { status: 401 };
    const decision = limiter.hit(tenant.rateKey, LIMIT);
    const headers = rateLimitHeaders(decision);
    return decision.allowed ? { status: 200, headers, claims, decision } : { status: 429, headers };
  };
}

/**
 * The limits route's document after the gate, or null for another tenant's account (404); the
 * account's Pix limits are a cached answer in the service, a Map hit here.
 */
function limitsOf() {
  const pixLimits = new Map();
  return function limits(g, accountId) {
    if (accountId !== g.claims.tenant) return null;
    let pix = pixLimits.get(accountId);
    if (!pix) pixLimits.set(accountId, (pix = PIX));
    const d = g.decision;
    return {
      accountId,
      tenantId: g.claims.tenant,
      rateLimit: { limit: d.limit, remaining: d.remaining, resetSeconds: d.resetSeconds, windowSeconds: WINDOW_MS / 1000 },
      pix: { perTransaction: pix.perTransaction, daytime: pix.daytime, nighttime: pix.nighttime },
    };
  };
}

/**
 * For a node:http floor: `admit(req, res)` runs the gate on the request, puts its RateLimit-*
 * headers on `res` (the floor's answer carries them, as the service's does) and returns the
 * token's claims, or null when the gate refused (the floor answers 401).
 */
function admitter(keys) {
  const gate = gatewayChecker(keys);
  return function admit(req, res) {
    const g = gate(req.headers.authorization, req.socket.remoteAddress);
    if (g.headers) for (const k in g.headers) res.setHeader(k, g.headers[k]);
    return g.status === 200 ? g.claims : null;
  };
}

module.exports = { gatewayChecker, limitsOf, admitter };
