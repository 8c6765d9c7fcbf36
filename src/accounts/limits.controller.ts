import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RateDecision } from '../gateway/rate-limit/rate-limiter';
import { ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { CurrentTenant, TenantRoute } from '../gateway/tenant-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { AccountLimitsDto } from './limits.dto';
import { LimitsService } from './limits.service';

@ApiTags('accounts')
@TenantRoute()
@Controller('v1/banking/accounts')
export class LimitsController {
  constructor(private readonly limits: LimitsService) {}

  @Get(':accountId/limits')
  @ApiOperation({
    operationId: 'getAccountLimits',
    summary: "The tenant's current rate-limit figures and the account's Pix limits",
    description:
      "Each tenant has one account whose id is the tenant id. `rateLimit` is what the gateway decided for this very request; `pix` is the bank's answer, " +
      'reused for ACCOUNT_LIMITS_CACHE_MS (30 s) and, while the bank is unreachable, for up to ACCOUNT_LIMITS_STALE_MS (10 min) more.',
  })
  @ApiOkResponse({ type: AccountLimitsDto })
  @ApiErrors(
    [404, 'account_not_found', 'No account with this id for this tenant'],
    [500, 'provider_unavailable', 'The bank is unreachable and no recent answer is kept'],
  )
  get(
    @CurrentTenant() t: TenantContext,
    @Param('accountId') accountId: string,
    @Req() req: FastifyRequest & { rateLimit: RateDecision },
  ): AccountLimitsDto | Promise<AccountLimitsDto> {
    return this.limits.forAccount(t, accountId, req.rateLimit);
  }
}
