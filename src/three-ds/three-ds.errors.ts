import { defineErrors } from '../../kernel/platform/errors/app-error';

/** Error codes of 3DS authentication (spec table: 401 bad token, 403 merchant, 500 acquirer communication). */
export const ThreeDsErrors = defineErrors({
  validation_error: 400,
  amount_mismatch: 400,
  card_mismatch: 400,
  document_mismatch: 400,
  reference_mismatch: 400,
  invalid_payment_token: 401,
  merchant_not_found: 403,
  card_not_found: 404,
  setup_required: 409,
  already_authenticated: 409,
  request_id_reused: 409,
  challenge_pending: 409,
  not_challenged: 409,
  acquirer_unavailable: 500,
});

declare module '../../kernel/platform/errors/app-error' {
  /** ThreeDsErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof ThreeDsErrors.table, true> {}
}
