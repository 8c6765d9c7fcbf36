import { defineErrors } from '../../platform/errors/app-error';

export const ProviderBankErrors = defineErrors({
  invalid_signature: 401,
  invalid_event: 400,
  unknown_event_type: 400,
  events_not_handled: 503,
});
