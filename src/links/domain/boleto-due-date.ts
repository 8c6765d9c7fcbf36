import { addBusinessDays, compareDates, IsoDate, nearestBusinessDay } from '../../../kernel/common/calendar/business-days';

/**
 * A boleto's due date: `businessDays` business days after `today` (São Paulo dates; weekends and
 * Brazilian national bank holidays do not count), so it never falls on a day banks are closed.
 * A link that expires earlier caps it: the last business day on or before the expiry date, or
 * the expiry date itself when no business day is left between today and then.
 */
export function boletoDueDate(today: IsoDate, businessDays: number, linkExpiryDate: IsoDate | null): IsoDate {
  const due = addBusinessDays(today, businessDays);
  if (linkExpiryDate === null || compareDates(linkExpiryDate, due) >= 0) return due;
  const capped = nearestBusinessDay(linkExpiryDate, -1);
  return compareDates(capped, today) >= 0 ? capped : linkExpiryDate;
}

/** The rule as the API documents it (OpenAPI descriptions of a boleto's dueDate). */
export const BOLETO_DUE_DATE_RULE =
  'Due LINKS_BOLETO_DUE_BUSINESS_DAYS business days (3 by default) after the day it is issued, São Paulo time: Saturdays, Sundays and Brazilian national bank holidays are not counted, so it never falls on one (issued on a Friday: the next Wednesday). Never after the link expires: then the last business day before expiresAt.';
