import { applyDecorators, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader } from '@nestjs/swagger';
import { IdempotentPosts } from '../../kernel/platform/idempotency/idempotent-posts.decorator';
import { ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { GatewayGuard } from './gateway.guard';

import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { httpRequest } from '../../kernel/platform/http/http-context';

/** The tenant of the current `/v1` request (set by the gateway guard). */
export const CurrentTenant = createParamDecorator((_: unknown, ctx: ExecutionContext): TenantContext => {
  return httpRequest<{ tenant: TenantContext }>(ctx).tenant;
});

/**
 * Marks a controller or route as a tenant route: bearer JWT (signature) → IP allow-list →
 * expiry/revocation → per-tenant rate limit, then `Idempotency-Key` handling on POST; and
 * documents it.
 */
export function TenantRoute() {
  return applyDecorators(
    UseGuards(GatewayGuard),
    IdempotentPosts(),
    ApiBearerAuth('bearer'),
    ApiHeader({ name: 'X-Request-Id', required: false, description: 'Echoed back; made when absent' }),
    ApiErrors(
      [401, 'invalid_token', 'Missing, invalid (`invalid_token`) or expired (`expired_token`) bearer token'],
      [403, 'ip_not_allowed', 'The caller IP is not on the tenant allow-list; the body carries `ip`'],
      [429, 'rate_limited', 'Over the tenant rate limit; see Retry-After and RateLimit-* headers'],
    ),
  );
}
