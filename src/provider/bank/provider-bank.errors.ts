import { defineErrors } from '../../../kernel/platform/errors/app-error';

export const ProviderBankErrors = defineErrors({
  invalid_signature: 401,
  invalid_event: 400,
  unknown_event_type: 400,
  events_not_handled: 503,
});

declare module '../../../kernel/platform/errors/app-error' {
  /** ProviderBankErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof ProviderBankErrors.table, true> {}
}
