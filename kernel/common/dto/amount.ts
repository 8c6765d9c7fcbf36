import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { buildMessage, IsOptional, IsPositive, ValidateBy, ValidationOptions } from 'class-validator';
import { MAX_CENTS, toCents } from '../formats/money';

export const IS_MONEY = 'isMoney';

/** Whether `value` is a JSON number that money.ts converts exactly: finite, at most 2 decimals, at most MAX_CENTS in size (the sign is for `@IsPositive()` or `@Min()` to judge). */
export function isMoney(value: unknown): boolean {
  if (typeof value !== 'number') return false;
  try {
    toCents(Math.abs(value));
    return true;
  } catch {
    return false;
  }
}

/**
 * class-validator decorator for amounts (BRL) and 2-decimal percentages: {@link isMoney}. It
 * replaces `IsNumber({ maxDecimalPlaces: 2 })`, which throws on exponent forms (`1e-7`) and lets
 * through what money.ts cannot represent (`1e308`).
 */
export function IsMoney(validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: IS_MONEY,
      validator: {
        validate: isMoney,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a number with at most 2 decimals, at most ${MAX_CENTS / 100}`,
          validationOptions,
        ),
      },
    },
    validationOptions,
  );
}

/**
 * A positive amount in BRL, documented and validated in one decorator: what `@ApiProperty`,
 * `@IsMoney()` and `@IsPositive()` said in each DTO. The document shows it as the other amounts,
 * `exclusiveMinimum: 0` (openapi/truth.ts).
 */
export function PositiveAmount(doc: ApiPropertyOptions = {}, opts: { optional?: boolean } = {}): PropertyDecorator {
  const api = ApiProperty({ type: 'number', minimum: 1, ...(opts.optional ? { required: false } : {}), ...doc } as ApiPropertyOptions);
  return opts.optional ? applyDecorators(api, IsOptional(), IsMoney(), IsPositive()) : applyDecorators(api, IsMoney(), IsPositive());
}
