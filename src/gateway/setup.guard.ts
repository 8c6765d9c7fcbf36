import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayConfig } from './gateway.config';
import { TenantGate } from './tenant-gate';
import { httpRequest, httpReply } from '../../kernel/platform/http/http-context';

/**
 * The credential setup routes (`/v1/tenants/{tenantId}/keys…`) carry no token, but pass the
 * tenant's allow-list and a tighter per-tenant rate limit (SETUP_RATE_LIMIT_PER_MINUTE).
 */
@Injectable()
export class SetupGuard implements CanActivate {
  constructor(
    private readonly gate: TenantGate,
    private readonly config: GatewayConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = httpRequest<FastifyRequest & { idempotencyScope?: string }>(ctx);
    const tenantId = (req.params as Record<string, string>).tenantId;
    const policy = await this.gate.admit(tenantId, req);
    await this.gate.limit(`s:${policy.tenantId}`, this.config.setupRateLimitPerMinute, httpReply<FastifyReply>(ctx));
    req.idempotencyScope = policy.tenantId;
    return true;
  }
}
