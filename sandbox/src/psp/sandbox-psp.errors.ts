import { defineErrors } from '../../../kernel/platform/errors/app-error';

/** Answers of the sandbox PSP's control routes (MED injection, payouts) on the main server. */
export const SandboxPspErrors = defineErrors({
  sandbox_pix_not_found: 404,
  med_natureza_not_allowed: 422,
  devolucao_over_pix: 409,
  payout_not_found: 404,
  payout_invalid: 400,
});

declare module '../../../kernel/platform/errors/app-error' {
  /** SandboxPspErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof SandboxPspErrors.table, true> {}
}
