import { defineErrors } from '../../../kernel/platform/errors/app-error';

/** Answers of the simulated acquirer (and of its payer-facing sandbox routes). */
export const SandboxAcquirerErrors = defineErrors({
  acquirer_unauthorized: 401,
  acquirer_transaction_not_found: 404,
  pix_charge_not_found: 404,
  boleto_not_found: 404,
  transaction_id_reused: 409,
  capture_not_allowed: 409,
  void_not_allowed: 409,
  capture_amount_invalid: 422,
  pix_not_payable: 409,
  boleto_not_payable: 409,
  invalid_card: 400,
  card_transaction_not_found: 404,
  not_refundable: 409,
  refund_exceeds_captured: 422,
  not_disputable: 409,
});

declare module '../../../kernel/platform/errors/app-error' {
  /** SandboxAcquirerErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof SandboxAcquirerErrors.table, true> {}
}
