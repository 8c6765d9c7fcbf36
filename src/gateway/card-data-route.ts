import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader } from '@nestjs/swagger';
import { GatewayGuard } from './gateway.guard';
import { ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';

/**
 * A tenant route whose body carries a card number or security code: the same guard chain as
 * `@TenantRoute()`, but WITHOUT `Idempotency-Key` handling, whose stored request hash is an
 * unkeyed SHA-256 of the body (a card number and security code could be recovered from it by
 * brute force). Tokenizing twice is harmless: the same card is the same stored card.
 */
export function CardDataRoute() {
  return applyDecorators(
    UseGuards(GatewayGuard),
    ApiBearerAuth('bearer'),
    ApiHeader({ name: 'X-Request-Id', required: false, description: 'Echoed back; made when absent' }),
    ApiErrors(
      [401, 'invalid_token', 'Missing, invalid (`invalid_token`) or expired (`expired_token`) bearer token'],
      [403, 'ip_not_allowed', 'The caller IP is not on the tenant allow-list; the body carries `ip`'],
      [429, 'rate_limited', 'Over the tenant rate limit; see Retry-After and RateLimit-* headers'],
    ),
  );
}
