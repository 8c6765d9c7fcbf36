import { Injectable } from '@nestjs/common';
import { ParsedCidr, ipInCidrs, parseCidr } from '../../kernel/common/cidr';
import { TtlCache } from '../../kernel/common/ttl-cache';
import { TenantsRepository } from '../tenants/tenants.repository';
import { GatewayConfig } from './gateway.config';

/** What the gateway needs of a tenant record, parsed once. */
export interface TenantPolicy {
  tenantId: string;
  cidrs: ParsedCidr[];
  /** allow-list answers already worked out for this copy of the record, by caller IP */
  decisions?: Map<string, boolean>;
  /** the tenant's rate-limit counter key, made once per copy of the record rather than per request */
  rateKey?: string;
  rateLimitPerMinute: number;
  active: boolean;
}

/**
 * Per-replica copy of tenant records with a short TTL (TENANT_CACHE_TTL_MS ≤ 2 s): an
 * allow-list or rate-limit change made by the operator applies on every replica within it.
 * Concurrent misses for one tenant share one query.
 */
@Injectable()
export class TenantPolicyCache {
  private readonly cache: TtlCache<TenantPolicy | null>;

  constructor(tenants: TenantsRepository, config: GatewayConfig) {
    this.cache = new TtlCache(
      async (tenantId) => {
        const t = await tenants.findById(tenantId);
        return t
          ? {
              tenantId: t.id,
              cidrs: t.allowedCidrs.map((c) => parseCidr(c)).filter((c): c is ParsedCidr => c !== null),
              rateLimitPerMinute: t.rateLimitPerMinute,
              active: t.status === 'ACTIVE',
            }
          : null;
      },
      { ttlMs: config.tenantCacheTtlMs, maxEntries: 50_000 },
    );
  }

  /** The policy, or null when the tenant does not exist. */
  get(tenantId: string): TenantPolicy | null | Promise<TenantPolicy | null> {
    return this.cache.get(tenantId);
  }

  /**
   * Whether `ip` is on the policy's allow-list. The answer is kept on this copy of the record
   * (so it lives no longer than the TTL above, and a changed allow-list is a new copy); a
   * caller rarely has more than a handful of addresses, and the memo is bounded anyway.
   */
  allows(policy: TenantPolicy, ip: string): boolean {
    const memo = (policy.decisions ??= new Map());
    const known = memo.get(ip);
    if (known !== undefined) return known;
    const ok = ipInCidrs(ip, policy.cidrs);
    if (memo.size >= 256) memo.clear();
    memo.set(ip, ok);
    return ok;
  }
}
