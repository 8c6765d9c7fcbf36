import { defineErrors } from '../../kernel/platform/errors/app-error';
import { registerDomainErrors } from '../../kernel/platform/errors/app-error';
import { CalendarInputError, CalendarInputErrorCode } from './domain/calendar';

export const PixAutomaticErrors = defineErrors({
  recurrence_not_found: 404,
  billing_not_found: 404,
  /** The spec: ad hoc billing on a recurrence that is not ACCEPTED/ACTIVE answers 500. */
  recurrence_not_authorized: 500,
  recurrence_not_cancelable: 409,
  billing_not_cancelable: 409,
  due_date_in_past: 400,
  periodicity_not_supported: 400,
  push_authorization_not_supported: 400,
  unknown_event_type: 400,
  /** The provider cannot be reached (or its breaker is open): retry at 1 s, 3 s, 9 s. */
  provider_unavailable: 500,
  /** The provider refused the request. */
  provider_error: 500,
});

/** The calendar's input errors: requests are validated before any date arithmetic, so one here is ours. */
registerDomainErrors<CalendarInputErrorCode>(CalendarInputError, {
  INVALID_DATE: 500,
  INVALID_YEAR: 500,
  INVALID_COUNT: 500,
  INVALID_PERIODICITY: 500,
  INVALID_DAY_ADJUSTMENT: 500,
  INVALID_TIME_ZONE: 500,
  INVALID_INSTANT: 500,
});

declare module '../../kernel/platform/errors/app-error' {
  /** PixAutomaticErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof PixAutomaticErrors.table, true> {}
}
