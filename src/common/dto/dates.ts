import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';
import { daysInMonth } from '../calendar/business-days';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A real calendar date written YYYY-MM-DD (`2026-02-30` is not one), years 0000 to 9999. */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return false;
  const digit = (i: number) => value.charCodeAt(i) - 48;
  const year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3);
  const month = digit(5) * 10 + digit(6);
  const day = digit(8) * 10 + digit(9);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** class-validator decorator: {@link isIsoDate}. */
export function IsIsoDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIsoDate',
      validator: {
        validate: isIsoDate,
        defaultMessage: buildMessage((p) => `${p}$property must be a real date written YYYY-MM-DD`, options),
      },
    },
    options,
  );
}
