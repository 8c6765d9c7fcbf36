import { Injectable } from '@nestjs/common';
import { AuthConfig } from '../auth.config';
import { AuthKeysRepository } from '../keys/auth-keys.repository';

/**
 * Whether a key's credentials are revoked, read from PostgreSQL and kept per replica for at
 * most REVOCATION_CACHE_MS (≤ 2 s): a revocation reaches every replica within that bound.
 * A missing key counts as revoked. Concurrent misses share one query.
 */
@Injectable()
export class KeyRevocationCache {
  private readonly entries = new Map<string, { revoked: boolean; at: number }>();
  private readonly loading = new Map<string, Promise<boolean>>();

  constructor(
    private readonly keys: AuthKeysRepository,
    private readonly config: AuthConfig,
  ) {}

  isRevoked(keyId: string): boolean | Promise<boolean> {
    const e = this.entries.get(keyId);
    if (e && Date.now() - e.at < this.config.revocationCacheMs) return e.revoked;
    return this.load(keyId);
  }

  /** This replica learns at once of a revocation it performed. */
  markRevoked(keyId: string): void {
    this.entries.set(keyId, { revoked: true, at: Date.now() });
  }

  private load(keyId: string): Promise<boolean> {
    const pending = this.loading.get(keyId);
    if (pending) return pending;
    const p = (async () => {
      try {
        const status = await this.keys.statusOf(keyId);
        const revoked = status !== 'VERIFIED';
        if (this.entries.size > 100_000) this.entries.clear();
        this.entries.set(keyId, { revoked, at: Date.now() });
        return revoked;
      } finally {
        this.loading.delete(keyId);
      }
    })();
    this.loading.set(keyId, p);
    return p;
  }
}
