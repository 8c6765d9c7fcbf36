import { Injectable } from '@nestjs/common';
import { TtlCache } from '../../kernel/common/ttl-cache';
import { BankAccountLimits, BankProvider } from '../provider/bank/bank-provider.port';
import { GatewayConfig } from '../gateway/gateway.config';
import { GatewayErrors } from '../gateway/gateway.errors';
import { RateDecision } from '../gateway/rate-limit/rate-limiter';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { AccountLimitsDto } from './limits.dto';

/** Bounds the per-replica copy of account limits (one entry per account asked about). */
const MAX_ACCOUNTS = 10_000;

@Injectable()
export class LimitsService {
  private readonly known: TtlCache<BankAccountLimits>;

  constructor(
    private readonly config: GatewayConfig,
    bank: BankProvider,
  ) {
    this.known = new TtlCache((accountId) => bank.getAccountLimits(accountId), {
      ttlMs: config.accountLimitsCacheMs,
      maxEntries: MAX_ACCOUNTS,
    });
  }

  /**
   * Until the bank holds accounts of its own, a tenant has one account whose id is the tenant id.
   * The rate-limit figures are those the gateway decided for this very request; the Pix limits are
   * the bank's, reused for ACCOUNT_LIMITS_CACHE_MS, and while the bank is unreachable the last
   * answer serves for up to ACCOUNT_LIMITS_STALE_MS more; past that, 500 `provider_unavailable`.
   */
  forAccount(t: TenantContext, accountId: string, rate: RateDecision): AccountLimitsDto | Promise<AccountLimitsDto> {
    if (accountId !== t.tenantId) throw GatewayErrors.error('account_not_found', `Account ${accountId} does not exist`);
    // A fresh copy answers at once (the usual case: no promise per request); else the bank is asked.
    const known = this.known.get(accountId);
    return known instanceof Promise
      ? this.pixLimits(accountId, known).then((limits) => this.answer(t, accountId, rate, limits))
      : this.answer(t, accountId, rate, known);
  }

  private answer(t: TenantContext, accountId: string, rate: RateDecision, limits: BankAccountLimits): AccountLimitsDto {
    return {
      accountId,
      tenantId: t.tenantId,
      rateLimit: {
        limit: rate.limit,
        remaining: rate.remaining,
        resetSeconds: rate.resetSeconds,
        windowSeconds: this.config.rateLimitWindowSeconds,
      },
      pix: { perTransaction: limits.pix.perTransaction, daytime: limits.pix.daytime, nighttime: limits.pix.nighttime },
    };
  }

  private async pixLimits(accountId: string, loading: Promise<BankAccountLimits>): Promise<BankAccountLimits> {
    try {
      return await loading;
    } catch {
      const last = this.known.peek(accountId);
      if (last && last.ageMs < this.config.accountLimitsCacheMs + this.config.accountLimitsStaleMs) return last.value;
      throw GatewayErrors.error('provider_unavailable', "The bank that holds this account's Pix limits is unavailable; retry shortly");
    }
  }
}
