import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BearerCheck, BearerVerifier } from './bearer-verifier.port';
import { GatewayErrors } from './gateway.errors';
import { RateDecision } from './rate-limit/rate-limiter';
import { TenantGate } from './tenant-gate';
import { TenantPolicy, TenantPolicyCache } from './tenant-policy.cache';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';

type GatedRequest = FastifyRequest & { tenant?: TenantContext; rateLimit?: RateDecision };

/** Applies `next` to a value or, when it is still loading, to the promised value. */
function then<T, R>(v: T | Promise<T>, next: (x: T) => R | Promise<R>): R | Promise<R> {
  return v instanceof Promise ? v.then(next) : next(v);
}

/**
 * The guard chain in front of every `/v1` tenant route: the bearer token names the tenant
 * (signature checked) → IP allow-list (403) → expiry and revocation (401) → per-tenant rate
 * limit (429). A request refused for its token also counts against its IP's refusal limit
 * (`TenantGate.refuse`), so bad tokens are not free. Nothing is skipped; caches only bound how stale tenant records and revocation
 * states may be. When everything is cached (the usual case) the guard answers synchronously.
 */
@Injectable()
export class GatewayGuard implements CanActivate {
  constructor(
    private readonly bearer: BearerVerifier,
    private readonly policies: TenantPolicyCache,
    private readonly gate: TenantGate,
  ) {}

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    const http = ctx.switchToHttp();
    const req = http.getRequest<GatedRequest>();
    const reply = http.getResponse<FastifyReply>();
    const check = this.bearer.read(req.headers.authorization);
    if (!check.tenantId) return this.gate.refuse(req, check.error!);
    return then(this.policies.get(check.tenantId), (policy) => this.withPolicy(policy, check, req, reply));
  }

  private withPolicy(policy: TenantPolicy | null, check: BearerCheck, req: GatedRequest, reply: FastifyReply): boolean | Promise<boolean> {
    if (!policy)
      return this.gate.refuse(
        req,
        GatewayErrors.error('invalid_token', 'The tenant of this token no longer exists', { headers: wwwAuthenticate }),
      );
    this.gate.checkIp(policy, req);
    if (check.error) return this.gate.refuse(req, check.error);
    const tenant = check.context!;
    return then(this.bearer.isRevoked(tenant.keyId), (revoked) => {
      if (revoked)
        return this.gate.refuse(
          req,
          GatewayErrors.error('invalid_token', 'The credentials of this token were revoked', { headers: wwwAuthenticate }),
        );
      return then(this.gate.count((policy.rateKey ??= `t:${policy.tenantId}`), policy.rateLimitPerMinute, reply), (decision) => {
        req.rateLimit = decision;
        req.tenant = tenant;
        return true;
      });
    });
  }
}

export const wwwAuthenticate = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
