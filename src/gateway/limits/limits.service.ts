import { Injectable } from '@nestjs/common';
import { GatewayConfig } from '../gateway.config';
import { GatewayErrors } from '../gateway.errors';
import { RateDecision } from '../rate-limit/rate-limiter';
import { TenantContext } from '../tenant-context';
import { AccountLimitsDto } from './limits.dto';

@Injectable()
export class LimitsService {
  constructor(private readonly config: GatewayConfig) {}

  /**
   * Until the sandbox bank holds accounts, a tenant has one account whose id is the tenant id.
   * The rate-limit figures are those the gateway decided for this very request.
   */
  forAccount(t: TenantContext, accountId: string, rate: RateDecision): AccountLimitsDto {
    if (accountId !== t.tenantId) throw GatewayErrors.error('account_not_found', `Account ${accountId} does not exist`);
    return {
      accountId,
      tenantId: t.tenantId,
      rateLimit: { limit: rate.limit, remaining: rate.remaining, resetSeconds: rate.resetSeconds, windowSeconds: this.config.rateLimitWindowSeconds },
      pix: { ...this.config.pixLimits },
    };
  }
}
