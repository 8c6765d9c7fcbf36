import { defineErrors } from '../platform/errors/app-error';

/** Error codes of the cards module (card sessions, hosted page, vault, tokens, card payments). */
export const CardErrors = defineErrors({
  validation_error: 400,
  token_expired: 400,
  token_already_used: 400,
  parent_origin_not_allowed: 400,
  three_ds_mismatch: 400,
  three_ds_incomplete: 400,
  session_expired: 410,
  origin_not_allowed: 403,
  stored_card_not_found: 404,
  card_token_not_found: 404,
  payment_not_found: 404,
  three_ds_not_found: 404,
  invalid_payment_status: 409,
  void_window_closed: 409,
  three_ds_already_used: 409,
  acquirer_unavailable: 500,
  acquirer_rejected: 500,
  vault_unavailable: 500,
});
