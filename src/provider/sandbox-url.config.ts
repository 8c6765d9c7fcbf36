import { defineConfig } from '../../kernel/platform/config/config';
import type { EnvReader } from '../../kernel/platform/config/env';

/**
 * SANDBOX_URL, where the service finds the sandbox app (its own process, reached over HTTP as a
 * real bank or acquirer would be): outside production `http://127.0.0.1:3001`, what `npm start`
 * runs beside the service; in production only when set. Unset in production, every edge must be
 * given its party's own URL (PROVIDER_URL, PIX_API_URL, ACQUIRER_URL, ADYEN_CHECKOUT_URL…).
 */
export function sandboxUrlOf(env: EnvReader): string | undefined {
  return env.url('SANDBOX_URL')?.replace(/\/+$/, '') ?? (env.runtime === 'production' ? undefined : 'http://127.0.0.1:3001');
}

/**
 * The sandbox's origin as a payer's browser reaches it (SANDBOX_PUBLIC_URL, the same variable the
 * sandbox app reads for its own pages; else SANDBOX_URL, with 127.0.0.1 written as localhost,
 * the host both apps' default public URLs use, so a payer's browser stays on one host name): the
 * checkout's "pay in the bank app" links go there.
 */
export function sandboxPublicUrlOf(env: EnvReader): string | undefined {
  return env.url('SANDBOX_PUBLIC_URL')?.replace(/\/+$/, '') ?? sandboxUrlOf(env)?.replace('//127.0.0.1:', '//localhost:');
}

/** Where each edge goes when its own URL is unset: the sandbox app's HTTP origin and its API Pix PSP. */
export class SandboxUrlConfig {
  /** The sandbox app's HTTP origin (SANDBOX_URL). */
  url: string | undefined;
  /** Its API Pix PSP over mutual TLS (SANDBOX_PSP_URL; default the sandbox's host on port 3002). */
  pspUrl: string | undefined;

  /** `path` under the sandbox's origin; a clear failure where no sandbox is configured. */
  at(path: string): string {
    if (!this.url) throw new Error(`no URL is configured for this party and SANDBOX_URL is unset (would call ${path})`);
    return `${this.url}${path}`;
  }
}

export const sandboxUrlConfig = defineConfig(SandboxUrlConfig, (env) => {
  const url = sandboxUrlOf(env);
  const pspDefault = url ? `https://${new URL(url).hostname}:3002` : undefined;
  return Object.assign(new SandboxUrlConfig(), {
    url,
    pspUrl: env.url('SANDBOX_PSP_URL', undefined, ['https:'])?.replace(/\/+$/, '') ?? pspDefault,
  });
});
