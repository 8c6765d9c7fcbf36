import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientIp } from './client-ip';
import { GatewayConfig } from './gateway.config';
import { GatewayErrors } from './gateway.errors';
import { RateDecision, rateLimitHeaders, RateLimiter } from './rate-limit/rate-limiter';
import { TenantPolicy, TenantPolicyCache } from './tenant-policy.cache';

/**
 * The tenant checks shared by the token routes and the setup routes: the tenant exists and
 * is active, the caller's IP is on its allow-list, and a rate limit.
 */
@Injectable()
export class TenantGate {
  constructor(
    private readonly policies: TenantPolicyCache,
    private readonly limiter: RateLimiter,
    private readonly config: GatewayConfig,
  ) {}

  /**
   * A request refused for its token (`error`, a 401) is counted against the caller's IP in a
   * window of its own (`REFUSED_TOKENS_PER_MINUTE_PER_IP`): past the limit the answer is 429
   * `rate_limited` instead, and the refused token is not even looked at by the guard's caller
   * again until the window ends. Valid tokens from the same IP are not counted here.
   */
  refuse(req: FastifyRequest, error: Error): never | Promise<never> {
    const limit = this.config.refusedTokensPerMinutePerIp;
    const hit = this.limiter.hit(`refused:${clientIp(req)}`, limit);
    const judge = (d: RateDecision): never => {
      if (!d.allowed)
        throw refused(d, `Too many requests with a refused token from this address (${d.limit} per minute); retry in ${d.resetSeconds} s`);
      throw error;
    };
    return hit instanceof Promise ? hit.then(judge) : judge(hit);
  }

  /** 404 `tenant_not_found`, 403 `tenant_suspended` or 403 `ip_not_allowed` (with the IP seen). */
  async admit(tenantId: string, req: FastifyRequest): Promise<TenantPolicy> {
    const p = this.policies.get(tenantId);
    const policy = p instanceof Promise ? await p : p;
    if (!policy) throw GatewayErrors.error('tenant_not_found', `Tenant ${tenantId} does not exist`);
    this.checkIp(policy, req);
    return policy;
  }

  checkIp(policy: TenantPolicy, req: FastifyRequest): void {
    const ip = clientIp(req);
    if (!this.policies.allows(policy, ip)) {
      throw GatewayErrors.error('ip_not_allowed', `The IP ${ip} is not on the allow-list of this tenant`, { ip });
    }
    if (!policy.active) throw GatewayErrors.error('tenant_suspended', 'This tenant is suspended');
  }

  /**
   * Counts the request; 429 `rate_limited` beyond the limit (`refusal` words the message). Sets
   * RateLimit-* on the reply unless a limit counted earlier in this request left fewer requests:
   * when several windows apply, the headers describe the tightest.
   */
  async limit(key: string, limit: number, reply: FastifyReply, refusal?: (d: RateDecision) => string): Promise<RateDecision> {
    const hit = this.limiter.hit(key, limit);
    const d = hit instanceof Promise ? await hit : hit;
    if (!d.allowed) throw refused(d, refusal?.(d));
    const earlier = reply.getHeader('ratelimit-remaining');
    if (earlier === undefined || Number(earlier) > d.remaining) reply.headers(rateLimitHeaders(d));
    return d;
  }

  /** Counts and sets RateLimit-* (one limit per request: the token routes), synchronous when the counter is in-process. */
  count(key: string, limit: number, reply: FastifyReply): RateDecision | Promise<RateDecision> {
    const r = this.limiter.hit(key, limit);
    return r instanceof Promise ? r.then((d) => apply(d, reply)) : apply(r, reply);
  }
}

function apply(d: RateDecision, reply: FastifyReply): RateDecision {
  if (!d.allowed) throw refused(d);
  reply.headers(rateLimitHeaders(d));
  return d;
}

function refused(d: RateDecision, message = `Rate limit of ${d.limit} requests per minute reached; retry in ${d.resetSeconds} s`) {
  return GatewayErrors.error('rate_limited', message, { headers: rateLimitHeaders(d) });
}
