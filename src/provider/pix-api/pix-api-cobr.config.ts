import { defineConfig } from '../../../kernel/platform/config/config';

/** The receiver's account at its PSP (cobr `recebedor`). */
export interface ReceiverAccount {
  conta: string;
  tipoConta: 'CORRENTE' | 'POUPANCA' | 'PAGAMENTO';
  agencia?: string;
}

/** The cobr side of BANK_PROVIDER=pix-api: where callbacks come, the receiver's account, reconciliation. */
export class PixApiCobrConfig {
  /** BANK_PROVIDER=pix-api. */
  enabled: boolean;
  /** PIX_API_WEBHOOK_URL: the base URL the PSP calls back (it appends /rec, /cobr); unset: `<this server>/provider/pix-api`. */
  webhookUrl: string | undefined;
  /** PIX_API_RECEIVER_ACCOUNT `agencia/conta/TIPO` (cobr `recebedor`): the receiver's account at its PSP. */
  receiverAccount: ReceiverAccount;
  /** PIX_API_RECONCILE_INTERVAL_MS: how often open billings past their due date are checked with GET /cobr (0: never). */
  reconcileIntervalMs: number;
  /** How a callback's application is retried on the job queue before it is dead (PIX_API_CALLBACK_MAX_ATTEMPTS, _RETRY_BASE_MS). */
  callbacks: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
}

const ACCOUNT = /^(\d{1,4})?\/(\d{1,20})\/(CORRENTE|POUPANCA|PAGAMENTO)$/;

export const pixApiCobrConfig = defineConfig(PixApiCobrConfig, (env) => {
  const raw = env.str('PIX_API_RECEIVER_ACCOUNT', '0001/1234567/CORRENTE');
  const m = ACCOUNT.exec(raw);
  if (!m)
    env.problems.push(
      `PIX_API_RECEIVER_ACCOUNT must be agencia/conta/CORRENTE|POUPANCA|PAGAMENTO (e.g. 0001/1234567/CORRENTE), got "${raw}"`,
    );
  return {
    enabled: env.str('BANK_PROVIDER', 'service') === 'pix-api',
    webhookUrl: env.url('PIX_API_WEBHOOK_URL')?.replace(/\/+$/, ''),
    receiverAccount: m
      ? { ...(m[1] ? { agencia: m[1] } : {}), conta: m[2], tipoConta: m[3] as ReceiverAccount['tipoConta'] }
      : { conta: '0', tipoConta: 'CORRENTE' },
    reconcileIntervalMs: env.int('PIX_API_RECONCILE_INTERVAL_MS', 15 * 60_000, 0, 86_400_000),
    callbacks: {
      maxAttempts: env.int('PIX_API_CALLBACK_MAX_ATTEMPTS', 12, 1, 100),
      baseDelayMs: env.int('PIX_API_CALLBACK_RETRY_BASE_MS', 5000, 10, 900_000),
      maxDelayMs: 15 * 60_000,
    },
  };
});
