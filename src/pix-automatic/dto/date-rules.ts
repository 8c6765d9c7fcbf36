import { buildMessage, ValidateBy, ValidationOptions } from 'class-validator';
import { saoPauloDate } from '../../../kernel/platform/clock/clock';
import { compareDates, isValidDate } from '../domain/calendar';

/**
 * Today in America/Sao_Paulo as the validators see it. The module points it at the injected
 * `Clock` at boot, so the sandbox test clock moves what "the past" means.
 */
export const validationToday = { today: (): string => saoPauloDate(new Date()) };

export function IsIsoDate(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIsoDate',
      validator: {
        validate: (v: unknown) => isValidDate(v),
        defaultMessage: buildMessage((p) => `${p}$property must be a real date written YYYY-MM-DD`, options),
      },
    },
    options,
  );
}

/** Not before today in America/Sao_Paulo (a malformed date is IsIsoDate's to report). */
export function NotInPast(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'notInPast',
      validator: {
        validate: (v: unknown) => !isValidDate(v) || compareDates(v, validationToday.today()) >= 0,
        defaultMessage: buildMessage(
          (p) => `${p}$property must not be in the past (today is ${validationToday.today()} in America/Sao_Paulo)`,
          options,
        ),
      },
    },
    options,
  );
}

/** On or after the date in `field` of the same object. */
export function NotBefore(field: string, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'notBefore',
      constraints: [field],
      validator: {
        validate: (v: unknown, args) => {
          const other = (args?.object as Record<string, unknown>)?.[field];
          return !isValidDate(v) || !isValidDate(other) || compareDates(v, other) >= 0;
        },
        defaultMessage: buildMessage((p) => `${p}$property must be on or after ${field}`, options),
      },
    },
    options,
  );
}
