import { defineErrors } from '../../kernel/platform/errors/app-error';

export const AuthErrors = defineErrors({
  key_malformed: 400,
  key_not_rsa: 400,
  key_size_invalid: 400,
  key_is_private: 400,
  key_not_found: 404,
  challenge_mismatch: 400,
  challenge_expired: 400,
  challenge_used: 400,
  signature_malformed: 400,
  signature_invalid: 400,
  key_not_verified: 409,
  key_revoked: 409,
  // RFC 6749 §5.2 token errors (the body also carries `error_description`).
  invalid_request: 400,
  invalid_client: 401,
  unsupported_grant_type: 400,
});

declare module '../../kernel/platform/errors/app-error' {
  /** AuthErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof AuthErrors.table, true> {}
}
