import { defineConfig } from '../../../kernel/platform/config/config';

/** Links and boletos over API Pix (cob, cobv, webhook/{chave}): where the PSP calls back, how often open charges are checked. */
export class PixApiCobConfig {
  /** BANK_PROVIDER=pix-api. */
  enabled: boolean;
  /** PIX_API_WEBHOOK_URL: the base URL the PSP calls back (it appends /pix); unset: `<this server>/provider/pix-api`. */
  webhookUrl: string | undefined;
  /** PIX_API_CHARGES_CHECK_MS: how often received Pix are applied again and charges past their time read back (GET /cob, /cobv). */
  checkMs: number;
}

export const pixApiCobConfig = defineConfig(PixApiCobConfig, (env) => ({
  enabled: env.oneOf('BANK_PROVIDER', ['service', 'pix-api'] as const, 'service') === 'pix-api',
  webhookUrl: env.url('PIX_API_WEBHOOK_URL')?.replace(/\/+$/, ''),
  checkMs: env.int('PIX_API_CHARGES_CHECK_MS', 30_000, 100, 3_600_000),
}));
