import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BearerCheck, BearerVerifier } from './bearer-verifier.port';
import { GatewayErrors } from './gateway.errors';
import { RateDecision } from './rate-limit/rate-limiter';
import { TenantGate } from './tenant-gate';
import { TenantPolicy, TenantPolicyCache } from './tenant-policy.cache';
import { httpReply, httpRequest } from '../../kernel/platform/http/http-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';

type GatedRequest = FastifyRequest & { tenant?: TenantContext; rateLimit?: RateDecision };

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

  // Each step goes on synchronously when its answer is cached (the usual case) and through the
  // promise only when it is not: no closure is made for a request whose checks are all cached.
  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    const req = httpRequest<GatedRequest>(ctx);
    const check = this.bearer.read(req.headers.authorization);
    if (!check.tenantId) return this.gate.refuse(req, check.error!);
    const reply = httpReply<FastifyReply>(ctx);
    const policy = this.policies.get(check.tenantId);
    return policy instanceof Promise
      ? policy.then((p) => this.withPolicy(p, check, req, reply))
      : this.withPolicy(policy, check, req, reply);
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
    const revoked = this.bearer.isRevoked(tenant.keyId);
    return revoked instanceof Promise
      ? revoked.then((r) => this.unlessRevoked(r, policy, tenant, req, reply))
      : this.unlessRevoked(revoked, policy, tenant, req, reply);
  }

  private unlessRevoked(
    revoked: boolean,
    policy: TenantPolicy,
    tenant: TenantContext,
    req: GatedRequest,
    reply: FastifyReply,
  ): boolean | Promise<boolean> {
    if (revoked)
      return this.gate.refuse(
        req,
        GatewayErrors.error('invalid_token', 'The credentials of this token were revoked', { headers: wwwAuthenticate }),
      );
    const decision = this.gate.count((policy.rateKey ??= `t:${policy.tenantId}`), policy.rateLimitPerMinute, reply);
    return decision instanceof Promise ? decision.then((d) => admitted(req, tenant, d)) : admitted(req, tenant, decision);
  }
}

function admitted(req: GatedRequest, tenant: TenantContext, decision: RateDecision): true {
  req.rateLimit = decision;
  req.tenant = tenant;
  return true;
}

export const wwwAuthenticate = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
