import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GatewayGuard } from '../gateway/gateway.guard';
import { httpRequest } from '../../kernel/platform/http/http-context';

/** The ACS's browser form post (the CRes) carries no bearer token. */
export function isAcsFormPost(req: { headers: Record<string, unknown> }): boolean {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  return type.startsWith('application/x-www-form-urlencoded');
}

/**
 * challenge-result is two calls on one path: the ACS's browser form post (authorised by the
 * CRes, which only names a transaction; its result is read from the 3DS server) and the
 * caller's JSON call, which passes the full tenant guard chain.
 */
@Injectable()
export class ChallengeResultGuard implements CanActivate {
  constructor(private readonly gateway: GatewayGuard) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (isAcsFormPost(httpRequest(ctx))) return true;
    return this.gateway.canActivate(ctx);
  }
}
