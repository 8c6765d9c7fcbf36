import { defineErrors } from '../platform/errors/app-error';

export const PixAutomaticErrors = defineErrors({
  recurrence_not_found: 404,
  billing_not_found: 404,
  /** The spec: ad hoc billing on a recurrence that is not ACCEPTED/ACTIVE answers 500. */
  recurrence_not_authorized: 500,
  recurrence_not_cancelable: 409,
  billing_not_cancelable: 409,
  due_date_in_past: 400,
  periodicity_not_supported: 400,
  unknown_event_type: 400,
  /** The provider cannot be reached (or its breaker is open): retry at 1 s, 3 s, 9 s. */
  provider_unavailable: 500,
  /** The provider refused the request. */
  provider_error: 500,
});
