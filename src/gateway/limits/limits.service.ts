import { Injectable } from '@nestjs/common';
import { BankAccountLimits, BankProvider } from '../../provider/bank/bank-provider.port';
import { GatewayConfig } from '../gateway.config';
import { GatewayErrors } from '../gateway.errors';
import { RateDecision } from '../rate-limit/rate-limiter';
import { TenantContext } from '../tenant-context';
import { AccountLimitsDto } from './limits.dto';

interface Known {
  limits: BankAccountLimits;
  at: number;
}

/** Bounds the per-replica copy of account limits (one entry per account asked about). */
const MAX_ACCOUNTS = 10_000;

@Injectable()
export class LimitsService {
  private readonly known = new Map<string, Known>();
  private readonly loading = new Map<string, Promise<BankAccountLimits>>();

  constructor(
    private readonly config: GatewayConfig,
    private readonly bank: BankProvider,
  ) {}

  /**
   * Until the bank holds accounts of its own, a tenant has one account whose id is the tenant id.
   * The rate-limit figures are those the gateway decided for this very request; the Pix limits are
   * the bank's, reused for ACCOUNT_LIMITS_CACHE_MS, and while the bank is unreachable the last
   * answer serves for up to ACCOUNT_LIMITS_STALE_MS more; past that, 500 `provider_unavailable`.
   */
  async forAccount(t: TenantContext, accountId: string, rate: RateDecision): Promise<AccountLimitsDto> {
    if (accountId !== t.tenantId) throw GatewayErrors.error('account_not_found', `Account ${accountId} does not exist`);
    const limits = await this.pixLimits(accountId);
    return {
      accountId,
      tenantId: t.tenantId,
      rateLimit: { limit: rate.limit, remaining: rate.remaining, resetSeconds: rate.resetSeconds, windowSeconds: this.config.rateLimitWindowSeconds },
      pix: { perTransaction: limits.pix.perTransaction, daytime: limits.pix.daytime, nighttime: limits.pix.nighttime },
    };
  }

  private async pixLimits(accountId: string): Promise<BankAccountLimits> {
    const k = this.known.get(accountId);
    const age = k ? Date.now() - k.at : Infinity;
    if (k && age < this.config.accountLimitsCacheMs) return k.limits;
    try {
      return await this.load(accountId);
    } catch {
      if (k && age < this.config.accountLimitsCacheMs + this.config.accountLimitsStaleMs) return k.limits;
      throw GatewayErrors.error('provider_unavailable', 'The bank that holds this account\'s Pix limits is unavailable; retry shortly');
    }
  }

  /** One call per account at a time, however many requests ask. */
  private load(accountId: string): Promise<BankAccountLimits> {
    const pending = this.loading.get(accountId);
    if (pending) return pending;
    const p = this.bank
      .getAccountLimits(accountId)
      .then((limits) => {
        if (this.known.size >= MAX_ACCOUNTS) this.known.clear();
        this.known.set(accountId, { limits, at: Date.now() });
        return limits;
      })
      .finally(() => this.loading.delete(accountId));
    this.loading.set(accountId, p);
    return p;
  }
}
