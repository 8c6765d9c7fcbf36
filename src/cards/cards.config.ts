import { defineConfig } from '../../kernel/platform/config/config';
import { EnvReader } from '../../kernel/platform/config/env';
import { CardsDomainError } from './domain/errors';
import { MasterKeyRing, parseFingerprintKey, parseKeyRing } from './domain/vault-crypto';

/** Configuration of the card vault, the hosted card page and card tokens. */
export class CardsConfig {
  /** Master keys that wrap the per-record data keys (`VAULT_MASTER_KEYS`, `VAULT_ACTIVE_KEY_ID`). */
  vaultKeyRing: MasterKeyRing;
  /** HMAC key of the card fingerprint (`VAULT_FINGERPRINT_KEY`); never rotated (see docs/decisions/cards.md). */
  fingerprintKey: Buffer;
  /** Origin (and optional path prefix) of the hosted card page; unset = the service's PUBLIC_URL. */
  cardPageUrl: string | undefined;
  /** Life of a `slugToken` (and of the security code held in memory for it). */
  tokenTtlSeconds: number;
  /** Upper bound of security codes held in memory at once (each is a few bytes; protects memory). */
  securityCodeStoreMax: number;
  /** Server-side validation failures a hosted session tolerates before it is burnt. */
  sessionMaxFailedAttempts: number;
}

export const cardsConfig = defineConfig(CardsConfig, (env) => ({
  vaultKeyRing: readKeyRing(env),
  fingerprintKey: readFingerprintKey(env),
  cardPageUrl: env.url('CARD_PAGE_URL'),
  tokenTtlSeconds: env.int('CARD_TOKEN_TTL_SECONDS', 900, 60, 3600),
  securityCodeStoreMax: env.int('CARD_SECURITY_CODE_STORE_MAX', 100_000, 100, 10_000_000),
  sessionMaxFailedAttempts: env.int('CARD_SESSION_MAX_FAILED_ATTEMPTS', 10, 1, 100),
}));

function describe(e: unknown): string {
  return e instanceof CardsDomainError ? `${e.code}: ${e.message}` : 'unreadable';
}

/**
 * `VAULT_MASTER_KEYS` = `k1:<base64 32 bytes>,k2:<base64 32 bytes>` (the last entry, or
 * `VAULT_ACTIVE_KEY_ID`, wraps new records). Required in production; in development and test a
 * key is generated once and kept under DATA_DIR (as every env.secret).
 */
function readKeyRing(env: EnvReader): MasterKeyRing {
  const raw = env.raw('VAULT_MASTER_KEYS');
  let text: string;
  if (raw !== undefined) text = raw;
  else if (env.runtime === 'production') {
    env.problems.push('VAULT_MASTER_KEYS is required in production: "<keyId>:<base64 of 32 random bytes>[,…]" (openssl rand -base64 32)');
    return { activeKeyId: '', keys: {} };
  } else {
    text = `dev:${Buffer.from(env.secret('VAULT_DEV_MASTER_KEY', { bytes: 32 }), 'base64url').toString('base64')}`;
  }
  try {
    return parseKeyRing(text, env.raw('VAULT_ACTIVE_KEY_ID'));
  } catch (e) {
    env.problems.push(`VAULT_MASTER_KEYS is invalid (${describe(e)})`);
    return { activeKeyId: '', keys: {} };
  }
}

/** `VAULT_FINGERPRINT_KEY` = base64 of at least 32 random bytes, not one of the master keys. */
function readFingerprintKey(env: EnvReader): Buffer {
  const raw = env.raw('VAULT_FINGERPRINT_KEY');
  let text: string;
  if (raw !== undefined) text = raw;
  else if (env.runtime === 'production') {
    env.problems.push('VAULT_FINGERPRINT_KEY is required in production: base64 of at least 32 random bytes (openssl rand -base64 32)');
    return Buffer.alloc(0);
  } else {
    text = Buffer.from(env.secret('VAULT_DEV_FINGERPRINT_KEY', { bytes: 32 }), 'base64url').toString('base64');
  }
  try {
    return parseFingerprintKey(text);
  } catch (e) {
    env.problems.push(`VAULT_FINGERPRINT_KEY is invalid (${describe(e)})`);
    return Buffer.alloc(0);
  }
}
