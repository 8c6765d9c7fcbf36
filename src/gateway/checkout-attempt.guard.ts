import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientIp } from './client-ip';
import { GatewayConfig } from './gateway.config';
import { TenantGate } from './tenant-gate';
import { httpRequest, httpReply } from '../../kernel/platform/http/http-context';

/**
 * The hosted checkout's payment route is public (a payment link is meant to be shared), so it is
 * where stolen card numbers would be tried one after another. Each payer IP gets
 * CHECKOUT_RATE_LIMIT_PER_MINUTE attempts per minute across every link, counted before the body
 * is looked at (a refused card counts as much as an accepted one), on the gateway's counters
 * (shared through Redis when it is configured). Beyond it: 429 `rate_limited` with Retry-After,
 * and nothing is written.
 */
@Injectable()
export class CheckoutAttemptGuard implements CanActivate {
  constructor(
    private readonly gate: TenantGate,
    private readonly config: GatewayConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    await this.gate.limit(
      `c:${clientIp(httpRequest<FastifyRequest>(ctx))}`,
      this.config.checkoutRateLimitPerMinute,
      httpReply<FastifyReply>(ctx),
    );
    return true;
  }
}
