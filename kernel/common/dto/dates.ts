import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';
import { isoDateParts } from '../calendar/business-days';

/** A real calendar date written YYYY-MM-DD (`2026-02-30` is not one), years 0000 to 9999. */
export function isIsoDate(value: unknown): value is string {
  return isoDateParts(value) !== null;
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
