import { defineErrors } from '../../kernel/platform/errors/app-error';

export const SandboxErrors = defineErrors({
  sandbox_disabled: 404,
  invalid_provider_key: 401,
  sandbox_recurrence_not_found: 404,
  recurrence_not_pending: 409,
  authorization_expired: 409,
  recurrence_not_cancelable: 409,
  invalid_request: 400,
  test_clock_service_failed: 502,
});

declare module '../../kernel/platform/errors/app-error' {
  /** SandboxErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof SandboxErrors.table, true> {}
}
