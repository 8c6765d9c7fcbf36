import { SANDBOX_RECEIVER } from '../../../kernel/common/protocols/sandbox-receiver';
import { defineConfig } from '../../../kernel/platform/config/config';
import { sandboxEnabled } from '../sandbox.config';

/**
 * The simulated acquirer. On by default outside production (`SANDBOX_ENABLED`, the same rule
 * as the rest of the sandbox; read here so this module depends on no other sandbox code).
 * `ACQUIRER_API_KEY` and `ACQUIRER_EVENTS_SECRET` are the same variables the client reads, so
 * in development and test both sides share the generated values.
 */
export class SandboxAcquirerConfig {
  enabled: boolean;
  apiKey: string;
  eventsSecret: string;
  /** Where status notifications go; unset = this service's own `/provider/acquirer-events`. */
  notifyUrl: string | undefined;
  /** Pix AUTHORIZED → SETTLED this long (test-clock time) after payment. */
  pixSettleAfterSeconds: number;
  /** How often the sandbox looks for due settlements, expiries and undelivered notifications. */
  tickMs: number;
  merchantName: string;
  merchantCity: string;
  /** The acquirer's Pix key printed in its BR Codes (a random key, EVP). */
  pixKey: string;
  /** COMPE code of the bank that issues the sandbox's boletos. */
  boletoBankCode: string;
}

export const sandboxAcquirerConfig = defineConfig(SandboxAcquirerConfig, (env) => {
  const bank = env.str('SANDBOX_BOLETO_BANK_CODE', '237');
  if (!/^[0-79]\d{2}$/.test(bank)) env.problems.push(`SANDBOX_BOLETO_BANK_CODE must be 3 digits not starting with 8, got "${bank}"`);
  return {
    enabled: sandboxEnabled(env),
    apiKey: env.secret('ACQUIRER_API_KEY', { minLength: 24 }),
    eventsSecret: env.secret('ACQUIRER_EVENTS_SECRET', { minLength: 24 }),
    notifyUrl: env.url('SANDBOX_ACQUIRER_NOTIFY_URL'),
    pixSettleAfterSeconds: env.int('SANDBOX_PIX_SETTLE_AFTER_SECONDS', 60, 0, 30 * 86400),
    tickMs: env.int('SANDBOX_ACQUIRER_TICK_MS', 1000, 50, 60000),
    merchantName: env.str('SANDBOX_ACQUIRER_MERCHANT_NAME', SANDBOX_RECEIVER.name),
    merchantCity: env.str('SANDBOX_ACQUIRER_MERCHANT_CITY', 'Sao Paulo'),
    pixKey: env.str('SANDBOX_ACQUIRER_PIX_KEY', '7d9f0335-8dcc-4054-9bf9-0dbd61d36906'),
    boletoBankCode: bank,
  };
});
