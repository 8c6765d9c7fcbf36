import { defineConfig } from '../../kernel/platform/config/config';
import { sandboxPublicUrlOf } from '../provider/sandbox-url.config';
import { DEFAULT_FEE_TABLE, FeeError, FeeTable, validateFeeTable } from './domain/fees';

export class LinksConfig {
  /** Sandbox mode (`SANDBOX_ENABLED`): seeds merchants per tenant and shows sandbox helpers on the checkout. */
  sandbox: boolean;
  /** Where the checkout's sandbox helpers send the payer (the sandbox's bank app): its public origin. */
  sandboxPublicUrl: string | undefined;
  /** Fee table of merchants that have none of their own. */
  defaultFeeTable: FeeTable;
  /** Life of a Pix QR made on the checkout (capped by the link's expiresAt). */
  pixExpiresSeconds: number;
  /** A boleto's due date is this many business days after issue (capped by the link's expiresAt); see domain/boleto-due-date.ts. */
  boletoDueBusinessDays: number;
  /** How long a card attempt holds a use of a maxUses link at most (the authorization call). */
  cardHoldSeconds: number;
  /** Days after a boleto's due date its use stays held (bank clearing can report late). */
  boletoHoldGraceDays: number;
  /** `frame-ancestors` of the checkout page: who may embed it with the SDK. */
  frameAncestors: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** How often link expiry is looked at. */
  tickMs: number;
  /** The payment notices' policy on the job queue (LINKS_EMAIL_MAX_ATTEMPTS, LINKS_EMAIL_RETRY_BASE_MS; at most an hour apart). */
  email: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
}

export const linksConfig = defineConfig(LinksConfig, (env) => {
  let defaultFeeTable: FeeTable = DEFAULT_FEE_TABLE;
  const raw = env.raw('LINKS_DEFAULT_FEE_TABLE');
  if (raw) {
    try {
      defaultFeeTable = validateFeeTable(JSON.parse(raw));
    } catch (e) {
      env.problems.push(`LINKS_DEFAULT_FEE_TABLE must be a JSON fee table (${e instanceof FeeError ? e.message : 'not JSON'})`);
    }
  }
  if (env.raw('LINKS_BOLETO_DUE_DAYS') !== undefined)
    env.problems.push(
      'LINKS_BOLETO_DUE_DAYS is no longer read: boleto due dates count business days, set LINKS_BOLETO_DUE_BUSINESS_DAYS (default 3) instead',
    );
  const frameAncestors = env.str('CHECKOUT_FRAME_ANCESTORS', '*');
  if (/[;,'"]/.test(frameAncestors)) env.problems.push('CHECKOUT_FRAME_ANCESTORS must be space-separated origins or *');
  return {
    sandbox: env.bool('SANDBOX_ENABLED', env.runtime !== 'production'),
    sandboxPublicUrl: sandboxPublicUrlOf(env),
    defaultFeeTable,
    pixExpiresSeconds: env.int('LINKS_PIX_EXPIRES_SECONDS', 1800, 60, 7 * 86400),
    boletoDueBusinessDays: env.int('LINKS_BOLETO_DUE_BUSINESS_DAYS', 3, 0, 40),
    cardHoldSeconds: env.int('LINKS_CARD_HOLD_SECONDS', 120, 10, 3600),
    boletoHoldGraceDays: env.int('LINKS_BOLETO_HOLD_GRACE_DAYS', 3, 0, 30),
    frameAncestors,
    smtpUrl: env.url('SMTP_URL', undefined, ['smtp:', 'smtps:']),
    mailFrom: env.str('MAIL_FROM', 'Payments <no-reply@payments.local>'),
    tickMs: env.int('LINKS_TICK_MS', 1000, 50, 60000),
    email: {
      maxAttempts: env.int('LINKS_EMAIL_MAX_ATTEMPTS', 10, 1, 100),
      baseDelayMs: env.int('LINKS_EMAIL_RETRY_BASE_MS', 5000, 10, 3_600_000),
      maxDelayMs: 3_600_000,
    },
  };
});
