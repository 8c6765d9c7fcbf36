import { defineErrors } from '../../kernel/platform/errors/app-error';
import { registerDomainErrors } from '../../kernel/platform/errors/app-error';
import { CardsDomainError, CardsDomainErrorCode } from './domain/errors';

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

/** The cards domain's own errors: the vault's and the fingerprint key's, ours (an invalid card number is the shared format's). */
registerDomainErrors<CardsDomainErrorCode>(CardsDomainError, {
  vault_key_ring_empty: 500,
  vault_key_ring_malformed: 500,
  vault_key_id_invalid: 500,
  vault_key_id_duplicate: 500,
  vault_key_length_invalid: 500,
  vault_active_key_missing: 500,
  vault_key_not_found: 500,
  vault_record_malformed: 500,
  vault_decryption_failed: 500,
  fingerprint_key_invalid: 500,
});

declare module '../../kernel/platform/errors/app-error' {
  /** CardErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof CardErrors.table, true> {}
}
