import { defineConfig } from './config';
import { EnvReader, RuntimeEnv } from './env';

export class PlatformConfig {
  runtime: RuntimeEnv;
  port: number;
  /**
   * OPS_PORT: when set, /metrics, /docs and /admin are served on this port only (and answer 404
   * on PORT), so the port an ingress exposes carries the API alone. Unset: everything on PORT.
   */
  opsPort: number | undefined;
  host: string;
  /** Public origin of this service, used to build URLs handed to payers (checkout, card page). */
  publicUrl: string;
  dataDir: string;
  logLevel: string;
  /** CIDRs of proxies whose X-Forwarded-For is believed. Empty: only the socket address. */
  trustProxy: string[];
  adminApiKey: string;
  /** How long readiness reports 503 before the server stops accepting (lets load balancers drain). */
  shutdownDrainMs: number;
  bodyLimitBytes: number;
}

export class DatabaseConfig {
  /** Set when DATABASE_URL is given; otherwise the embedded PostgreSQL is started. */
  url: string | undefined;
  embeddedPort: number;
  poolSize: number;
  connectRetryMaxMs: number;
  statementTimeoutMs: number;
}

export const platformConfig = defineConfig(PlatformConfig, (env) => {
  const port = env.int('PORT', 3000, 1, 65535);
  const opsPort = env.raw('OPS_PORT') === undefined ? undefined : env.int('OPS_PORT', 0, 1, 65535) || undefined;
  if (opsPort === port) env.problems.push(`OPS_PORT must differ from PORT (both ${port})`);
  const trustProxy = env.list('TRUST_PROXY');
  for (const c of trustProxy) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(c)) env.problems.push(`TRUST_PROXY entry "${c}" is not an IP or CIDR`);
  }
  return {
    runtime: env.runtime,
    port,
    opsPort,
    host: env.str('HOST', '0.0.0.0'),
    publicUrl: env.url('PUBLIC_URL', `http://localhost:${port}`)!,
    dataDir: env.str('DATA_DIR', '.data'),
    logLevel: env.oneOf(
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      env.runtime === 'test' ? 'warn' : 'info',
    ),
    trustProxy,
    adminApiKey: env.secret('ADMIN_API_KEY', { minLength: 24 }),
    shutdownDrainMs: env.int('SHUTDOWN_DRAIN_MS', env.runtime === 'production' ? 3000 : 200, 0, 8000),
    bodyLimitBytes: 1024 * 1024,
  };
});

/**
 * DATABASE_URL; unset outside production means the embedded PostgreSQL. Production never falls
 * back to it: a production boot without a database URL would keep its data in a scratch
 * directory of one container, so it is refused (the wording avoids "is required in production",
 * which `npm run secrets:generate` reads as a secret to make).
 */
function databaseUrlOf(env: EnvReader): string | undefined {
  const url = env.url('DATABASE_URL', undefined, ['postgres:', 'postgresql:']);
  if (!url && env.runtime === 'production') {
    env.problems.push(
      'DATABASE_URL is required when NODE_ENV=production: set DATABASE_URL to your PostgreSQL (postgres://user:password@host:5432/db); the embedded PostgreSQL is for development only',
    );
  }
  return url;
}

export const databaseConfig = defineConfig(DatabaseConfig, (env) => ({
  url: databaseUrlOf(env),
  embeddedPort: env.int('EMBEDDED_PG_PORT', 54329, 1024, 65535),
  poolSize: env.int('DB_POOL_SIZE', 10, 1, 200),
  connectRetryMaxMs: env.int('DB_CONNECT_RETRY_MAX_MS', 10000, 100, 60000),
  statementTimeoutMs: env.int('DB_STATEMENT_TIMEOUT_MS', 15000, 100, 600000),
}));
