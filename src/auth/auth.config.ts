import { createHash } from 'node:crypto';
import { defineConfig } from '../../kernel/platform/config/config';

export interface JwtSigningKey {
  /** The `kid` in the JWT header. */
  kid: string;
  /** The HMAC key bytes (the configured secret's UTF-8 bytes). */
  key: Buffer;
}

export class AuthConfig {
  /** Newest first: the first signs, every one verifies (rotation). */
  jwtKeys: JwtSigningKey[];
  jwtIssuer: string;
  tokenTtlSeconds: number;
  challengeTtlSeconds: number;
  /** Token calls per minute per client id. */
  tokenRateLimitPerMinute: number;
  /** Token calls per minute per caller IP. */
  tokenIpRateLimitPerMinute: number;
  /** How stale the per-replica view of a key's revocation may be. */
  revocationCacheMs: number;
  /** scrypt cost (N) for client secret hashes. */
  scryptCost: number;
}

const KID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * `JWT_SIGNING_KEYS=kid2:secret2,kid1:secret1` (newest first). An entry without `kid:` gets a
 * kid derived from the secret. Unset in development/test: one key generated under DATA_DIR.
 */
export function parseJwtKeys(raw: string, problems: string[], minLength: number): JwtSigningKey[] {
  const out: JwtSigningKey[] = [];
  for (const entry of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const i = entry.indexOf(':');
    const kid = i > 0 ? entry.slice(0, i) : createHash('sha256').update(entry).digest('hex').slice(0, 12);
    const secret = i > 0 ? entry.slice(i + 1) : entry;
    if (!KID.test(kid)) problems.push(`JWT_SIGNING_KEYS: kid "${kid}" must be 1-64 of A-Z a-z 0-9 . _ -`);
    if (secret.length < minLength) problems.push(`JWT_SIGNING_KEYS: the secret of kid "${kid}" is shorter than ${minLength} characters`);
    if (out.some((k) => k.kid === kid)) problems.push(`JWT_SIGNING_KEYS: kid "${kid}" appears twice`);
    out.push({ kid, key: Buffer.from(secret, 'utf8') });
  }
  if (!out.length) problems.push('JWT_SIGNING_KEYS has no key');
  return out;
}

export const authConfig = defineConfig(AuthConfig, (env) => {
  const raw = env.raw('JWT_SIGNING_KEYS') ?? (env.runtime === 'production' ? undefined : env.secret('JWT_SIGNING_KEYS', { bytes: 32 }));
  if (raw === undefined)
    env.problems.push('JWT_SIGNING_KEYS is required in production: kid:secret[,kid:secret…], newest first, secrets of 32+ characters');
  const jwtKeys = raw === undefined ? [] : parseJwtKeys(raw, env.problems, env.runtime === 'production' ? 32 : 16);
  return {
    jwtKeys,
    jwtIssuer: env.str('JWT_ISSUER', 'payments-platform'),
    tokenTtlSeconds: 3600,
    challengeTtlSeconds: env.int('CHALLENGE_TTL_SECONDS', 300, 30, 3600),
    tokenRateLimitPerMinute: env.int('TOKEN_RATE_LIMIT_PER_MINUTE', 20, 1, 100000),
    tokenIpRateLimitPerMinute: env.int('TOKEN_IP_RATE_LIMIT_PER_MINUTE', 100, 1, 100000),
    revocationCacheMs: env.int('REVOCATION_CACHE_MS', 1000, 0, 2000),
    scryptCost: env.int('SCRYPT_COST', 16384, 1024, 1048576),
  };
});
