import { Injectable } from '@nestjs/common';
import { TtlCache } from '../../../kernel/common/ttl-cache';
import { AuthConfig } from '../auth.config';
import { AuthKeysRepository } from '../keys/auth-keys.repository';

/**
 * Whether a key's credentials are revoked, read from PostgreSQL and kept per replica for at
 * most REVOCATION_CACHE_MS (≤ 2 s): a revocation reaches every replica within that bound.
 * A missing key counts as revoked. Concurrent misses share one query.
 */
@Injectable()
export class KeyRevocationCache {
  private readonly cache: TtlCache<boolean>;

  constructor(keys: AuthKeysRepository, config: AuthConfig) {
    this.cache = new TtlCache(async (keyId) => (await keys.statusOf(keyId)) !== 'VERIFIED', {
      ttlMs: config.revocationCacheMs,
      maxEntries: 100_000,
    });
  }

  isRevoked(keyId: string): boolean | Promise<boolean> {
    return this.cache.get(keyId);
  }

  /** This replica learns at once of a revocation it performed. */
  markRevoked(keyId: string): void {
    this.cache.set(keyId, true);
  }
}
