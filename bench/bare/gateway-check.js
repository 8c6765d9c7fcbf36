// The gateway's work on an authenticated /v1 call, done with the least machinery, for the floors
// of the limits route (bare/auth-limits.js, bare/auth-limits-nest.js). The service does, per
// call: the bearer check (./hs256-check, its own codec and store of verified tokens), the tenant's
// record (a cached copy), the caller's IP against the tenant's allow-list, the key's revocation
// state (a cached answer), one count in the tenant's fixed one-minute window with the RateLimit-*
// headers of the decision, and the account's Pix limits (the bank's answer, cached). A floor that
// skipped any of these would credit the framework with work it never did, so the floors do them
// all, with the service's own compiled parts: its TTL cache (kernel/common/ttl-cache) for the
// three cached answers, with the TTLs the service's configuration gives (so a copy goes stale and
// is loaded again, by a promise, as often as the service's does; the loads answer constants where
// the service asks PostgreSQL or the bank), its rate limiter, header builder and CIDR matcher, as
// hs256-check does for the codec, so there is no second implementation to drift.
const { join } = require('node:path');
const { hs256Checker } = require('./hs256-check');

const { RateLimiter, rateLimitHeaders } = require(join(__dirname, '../../dist/src/gateway/rate-limit/rate-limiter.js'));
const { parseCidr, ipInCidrs } = require(join(__dirname, '../../dist/kernel/common/cidr.js'));
const { TtlCache } = require(join(__dirname, '../../dist/kernel/common/ttl-cache.js'));
const { loadConfig } = require(join(__dirname, '../../dist/kernel/platform/config/config.js'));
const { GatewayConfig, gatewayConfig } = require(join(__dirname, '../../dist/src/gateway/gateway.config.js'));
const { AuthConfig, authConfig } = require(join(__dirname, '../../dist/src/auth/auth.config.js'));

const WINDOW_MS = 60_000;
const LIMIT = 1_000_000_000; // the bench raises the tenant's limit out of the way, as here
const ALLOWED = ['127.0.0.1/32', '::1/128'].map(parseCidr); // what the bench's tenant allows
const PIX = { perTransaction: 1000000, daytime: 5000000, nighttime: 100000 };

/** The service's TTLs for its three cached answers, read by its own configuration sections from this environment. */
function serviceTtls(keys) {
  const config = loadConfig([gatewayConfig, authConfig], { ...process.env, JWT_SIGNING_KEYS: keys });
  const gateway = config.get(GatewayConfig);
  return { tenantMs: gateway.tenantCacheTtlMs, revocationMs: config.get(AuthConfig).revocationCacheMs, accountLimitsMs: gateway.accountLimitsCacheMs };
}

/**
 * `gate(authorization, ip)` → `{ status, headers?, claims?, decision? }`, or a promise of it when
 * a cached answer had gone stale (as the service's guard goes on): 401 for a refused token, 403
 * for an IP off the list, 429 past the limit, else 200 with the token's claims, the count's
 * decision and its RateLimit-* headers (a floor sends them with its answer, as the service does).
 * Any tenant a valid token names is taken as existing, active and allowing the bench's loopback
 * addresses; no key is revoked.
 */
function gatewayChecker(keys) {
  const verify = hs256Checker(keys);
  const ttl = serviceTtls(keys);
  const tenants = new TtlCache(async (tenantId) => ({ cidrs: ALLOWED, decisions: new Map(), active: true, rateKey: `t:${tenantId}` }), {
    ttlMs: ttl.tenantMs,
    maxEntries: 50_000,
  });
  const revoked = new TtlCache(async () => false, { ttlMs: ttl.revocationMs, maxEntries: 100_000 });
  // the service's own limiter on its in-process store (the benches run with REDIS_URL unset): the
  // same window, count and decision, not a copy of them
  const limiter = new RateLimiter({ rateLimitWindowSeconds: WINDOW_MS / 1000, redisUrl: null }, { add() {} }, null);
  function withTenant(tenant, claims, ip) {
    let allowed = tenant.decisions.get(ip); // the service keeps each IP's answer on the record too
    if (allowed === undefined) tenant.decisions.set(ip, (allowed = ipInCidrs(ip, tenant.cidrs)));
    if (!allowed || !tenant.active) return { status: 403 };
    const r = revoked.get(claims.kid);
    return r instanceof Promise ? r.then((isRevoked) => counted(isRevoked, tenant, claims)) : counted(r, tenant, claims);
  }
  function counted(isRevoked, tenant, claims) {
    if (isRevoked) return { status: 401 };
    const decision = limiter.hit(tenant.rateKey, LIMIT);
    const headers = rateLimitHeaders(decision);
    return decision.allowed ? { status: 200, headers, claims, decision } : { status: 429, headers };
  }
  return function gate(authorization, ip) {
    const claims = verify(authorization);
    if (!claims) return { status: 401 };
    const t = tenants.get(claims.tenant);
    return t instanceof Promise ? t.then((tenant) => withTenant(tenant, claims, ip)) : withTenant(t, claims, ip);
  };
}

/**
 * The limits route's document after the gate, or null for another tenant's account (404), or a
 * promise of it when the copy of the account's Pix limits had gone stale (a cached answer of the
 * bank's in the service, the same TTL cache here).
 */
function limitsOf(keys = process.env.JWT_SIGNING_KEYS) {
  const pixLimits = new TtlCache(async () => PIX, { ttlMs: serviceTtls(keys).accountLimitsMs, maxEntries: 10_000 });
  const answer = (g, accountId, pix) => {
    const d = g.decision;
    return {
      accountId,
      tenantId: g.claims.tenant,
      rateLimit: { limit: d.limit, remaining: d.remaining, resetSeconds: d.resetSeconds, windowSeconds: WINDOW_MS / 1000 },
      pix: { perTransaction: pix.perTransaction, daytime: pix.daytime, nighttime: pix.nighttime },
    };
  };
  return function limits(g, accountId) {
    if (accountId !== g.claims.tenant) return null;
    const pix = pixLimits.get(accountId);
    return pix instanceof Promise ? pix.then((p) => answer(g, accountId, p)) : answer(g, accountId, pix);
  };
}

/**
 * For a node:http floor: `admit(req, res, next)` runs the gate on the request, puts its RateLimit-*
 * headers on `res` (the floor's answer carries them, as the service's does) and calls
 * `next(claims)`, with null when the gate refused (the floor answers 401): at once, or when a
 * cached answer that had gone stale is loaded again. The one place a floor's dispatch meets the
 * gate's "an answer or a promise of it".
 */
function admitter(keys) {
  const gate = gatewayChecker(keys);
  const admitted = (g, res) => {
    if (g.headers) for (const k in g.headers) res.setHeader(k, g.headers[k]);
    return g.status === 200 ? g.claims : null;
  };
  return function admit(req, res, next) {
    const g = gate(req.headers.authorization, req.socket.remoteAddress);
    if (g instanceof Promise) g.then((x) => next(admitted(x, res)));
    else next(admitted(g, res));
  };
}

module.exports = { gatewayChecker, limitsOf, admitter };
