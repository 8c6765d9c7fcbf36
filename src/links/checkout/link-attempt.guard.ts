import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TenantGate } from '../../gateway/tenant-gate';
import { LinksRepository } from '../links/links.repository';
import { httpRequest, httpReply } from '../../../kernel/platform/http/http-context';

/**
 * The per-link brake, after the per-IP one (CheckoutAttemptGuard): a link with
 * `checkoutAttemptsPerMinute` takes at most that many payment attempts a minute from all payers
 * together, so card testing spread over many IPs still stops at the link the tenant chose to
 * protect. Counted on the gateway's counters (shared through Redis when configured) before the
 * body is looked at; beyond it: 429 `rate_limited` with Retry-After, nothing written. The
 * RateLimit-* headers describe whichever of the two windows has fewer attempts left.
 */
@Injectable()
export class LinkAttemptGuard implements CanActivate {
  constructor(
    private readonly links: LinksRepository,
    private readonly gate: TenantGate,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const slug = (httpRequest<FastifyRequest<{ Params: { slug?: string } }>>(ctx).params ?? {}).slug;
    const brake = typeof slug === 'string' ? await this.links.checkoutBrake(slug) : null;
    if (!brake?.perMinute) return true; // an unknown slug is answered 404 by the route itself
    await this.gate.limit(
      `l:${brake.linkId}`,
      brake.perMinute,
      httpReply<FastifyReply>(ctx),
      (d) => `This link takes at most ${d.limit} payment attempts per minute; retry in ${d.resetSeconds} s`,
    );
    return true;
  }
}
