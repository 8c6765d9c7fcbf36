import { existsSync } from 'node:fs';
import { defineConfig } from '../../../kernel/platform/config/config';
import { sandboxUrlOf } from '../sandbox-url.config';

/** The receiver's Pix key (chave) at the sandbox PSP when PIX_API_PIX_KEY is unset: a random key (EVP). */
export const SANDBOX_PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';

/** Scopes asked of the PSP's token endpoint (API Pix's, space separated) when PIX_API_SCOPES is unset. */
export const DEFAULT_PIX_API_SCOPES = [
  'rec.write',
  'rec.read',
  'solicrec.write',
  'solicrec.read',
  'cobr.write',
  'cobr.read',
  'payloadlocationrec.write',
  'payloadlocationrec.read',
  'webhookrec.write',
  'webhookrec.read',
  'webhookcobr.write',
  'webhookcobr.read',
  'cob.write',
  'cob.read',
  'cobv.write',
  'cobv.read',
  'payloadlocation.write',
  'payloadlocation.read',
  'pix.read',
  'webhook.write',
  'webhook.read',
].join(' ');

/**
 * How the service reaches a PSP over API Pix (BANK_PROVIDER=pix-api): the PSP's base URL, its
 * OAuth2 token URL and client, and the mutual-TLS client certificate, key and CA the Central
 * Bank's security manual requires. All unset with the sandbox enabled: the sandbox PSP, its
 * development certificates (DATA_DIR/psp-certs) and the development client secret.
 */
export class PixApiConfig {
  /** BANK_PROVIDER=pix-api. */
  enabled: boolean;
  /** PIX_API_URL, e.g. https://pix.example-psp.com.br/api/v2 (no trailing slash); unset: the sandbox PSP. */
  url: string | undefined;
  /** PIX_API_TOKEN_URL; unset: `<PIX_API_URL>/oauth/token`. */
  tokenUrl: string | undefined;
  clientId: string;
  clientSecret: string;
  /** PEM files: the client certificate and key the PSP issued or accepts, and its CA bundle. */
  certFile: string | undefined;
  keyFile: string | undefined;
  caFile: string | undefined;
  scopes: string;
  /** The receiver's Pix key (chave), for charges and `PUT /webhook/{chave}`. */
  pixKey: string;
}

export const pixApiConfig = defineConfig(PixApiConfig, (env) => {
  const enabled = env.oneOf('BANK_PROVIDER', ['service', 'pix-api'] as const, 'service') === 'pix-api';
  const url = env.url('PIX_API_URL', undefined, ['https:'])?.replace(/\/+$/, '');
  const sandbox = sandboxUrlOf(env);
  const file = (name: string): string | undefined => {
    const v = env.str(name);
    if (v !== undefined && !existsSync(v)) env.problems.push(`${name} names a file that does not exist: ${v}`);
    return v;
  };
  const certFile = file('PIX_API_CERT_FILE');
  const keyFile = file('PIX_API_KEY_FILE');
  const caFile = file('PIX_API_CA_FILE');
  if (enabled && url) {
    if (!certFile || !keyFile)
      env.problems.push(
        'PIX_API_CERT_FILE and PIX_API_KEY_FILE are required with PIX_API_URL: PSPs accept API Pix calls over mutual TLS only',
      );
  }
  if (enabled && !url && !sandbox)
    env.problems.push('PIX_API_URL is required with BANK_PROVIDER=pix-api when no sandbox is configured (SANDBOX_URL)');
  return {
    enabled,
    url,
    tokenUrl: env.url('PIX_API_TOKEN_URL', undefined, ['https:']),
    clientId: env.str('PIX_API_CLIENT_ID', 'sandbox-psp-client'),
    // required with pix-api in production; outside production the development secret (the sandbox PSP knows it)
    clientSecret: enabled || env.runtime !== 'production' ? env.secret('PIX_API_CLIENT_SECRET', { minLength: 24 }) : '',
    certFile,
    keyFile,
    caFile,
    scopes: env.str('PIX_API_SCOPES', DEFAULT_PIX_API_SCOPES),
    pixKey: env.str('PIX_API_PIX_KEY', SANDBOX_PIX_KEY),
  };
});
