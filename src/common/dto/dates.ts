import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';

/** A real calendar date written YYYY-MM-DD (`2026-02-30` is not one). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
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
