import { defineConfig } from '../../../kernel/platform/config/config';

/** The sandbox PSP: the simulated receiver's bank speaking API Pix over HTTPS with mutual TLS. */
export class SandboxPspConfig {
  /** Port of its HTTPS server (SANDBOX_PSP_PORT, 3002: the service's default SANDBOX_PSP_URL); 0: any free port. */
  port: number;
  /** SANDBOX_PSP_HOST: the address it binds (127.0.0.1; 0.0.0.0 in a container, for the service's container to reach it). */
  host: string;
  /**
   * SANDBOX_PSP_CERT_HOSTS: host names (or IPs) its server certificate covers besides localhost and
   * 127.0.0.1, the ones clients use in SANDBOX_PSP_URL (`sandbox` on the compose network).
   */
  certHosts: string[];
  /** Lifetime of the OAuth2 tokens it issues (SANDBOX_PSP_TOKEN_TTL_S, default 3600 as PSPs do). */
  tokenTtlS: number;
  /** The OAuth2 client it knows: the service's PIX_API_CLIENT_ID / PIX_API_CLIENT_SECRET. */
  clientId: string;
  clientSecret: string;
}

export const sandboxPspConfig = defineConfig(SandboxPspConfig, (env) => {
  return {
    port: env.int('SANDBOX_PSP_PORT', 3002, 0, 65535),
    host: env.str('SANDBOX_PSP_HOST', '127.0.0.1'),
    certHosts: env.list('SANDBOX_PSP_CERT_HOSTS'),
    tokenTtlS: env.int('SANDBOX_PSP_TOKEN_TTL_S', 3600, 1, 86400),
    clientId: env.str('PIX_API_CLIENT_ID', 'sandbox-psp-client'),
    // Outside production the development secret; in production the sandbox PSP knows the
    // configured one, and with none set it issues no token at all.
    clientSecret:
      env.runtime !== 'production' || env.raw('PIX_API_CLIENT_SECRET') ? env.secret('PIX_API_CLIENT_SECRET', { minLength: 24 }) : '',
  };
});
