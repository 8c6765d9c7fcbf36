import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * The raw body of the tokenize routes: the global ValidationPipe skips it (a plain object type)
 * and TokenizeCard.validate checks it (fields, types and card rules), which is cheaper on this
 * hot route. TokenizeCardDto documents it.
 */
export type CardBody = Record<string, unknown>;

/**
 * Card data for tokenization (server-to-server, and the hosted page's own same-origin call).
 * Types are checked here; the card rules (Luhn, brand length, expiry, security code length)
 * are checked by the tokenizer and answered as `validation_error` details.
 */
export class TokenizeCardDto {
  @ApiProperty({ description: 'Card number, 12–19 digits (spaces and hyphens ignored)', example: '4111111111111111', maxLength: 40 })
  @IsString()
  @MaxLength(40)
  cardNumber: string;

  @ApiProperty({ description: 'Expiry month, 1–12 (string or integer)', example: '12', oneOf: [{ type: 'string' }, { type: 'integer' }] })
  @IsDefined()
  expirationMonth: string | number;

  @ApiProperty({
    description: 'Expiry year, YYYY (or YY) (string or integer)',
    example: '2030',
    oneOf: [{ type: 'string' }, { type: 'integer' }],
  })
  @IsDefined()
  expirationYear: string | number;

  @ApiProperty({
    description: 'Security code (CVV): 3 digits, 4 for American Express. Held in memory only, for the single-use slugToken; never stored.',
    example: '123',
    maxLength: 4,
  })
  @IsString()
  @MaxLength(8)
  securityCode: string;

  @ApiPropertyOptional({ description: 'Card label chosen by the cardholder (max 40 characters)', example: 'Work card', maxLength: 40 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  nickname?: string;
}

/** The spec's tokenization result. */
export class TokenizationResultDto {
  @ApiProperty({
    description: 'Opaque reference to charge the card later (same card → same value for a tenant)',
    example: 'sc_x4Q0yTj9V4s1H2b8w3nKzA',
  })
  slugStoredCard: string;
  @ApiProperty({
    description: 'Single-use token reference (the only way to charge with the security code)',
    example: 'tk_pZ3n1K0bq9d2mY7rV5cXwg',
  })
  slugToken: string;
  @ApiProperty({ description: 'Expiry of slugToken, RFC 3339 UTC', example: '2026-11-20T12:15:00Z' })
  tokenExpirationDate: string;
  @ApiProperty({ enum: ['VISA', 'MASTERCARD', 'AMEX', 'UNKNOWN'], example: 'VISA' })
  brand: string;
  @ApiProperty({ description: 'BIN prefix (display only)', example: '4111' })
  first4: string;
  @ApiProperty({ description: 'Final four digits (display only)', example: '1111' })
  last4: string;
  @ApiProperty({ example: '12' })
  expirationMonth: string;
  @ApiProperty({ example: '2030' })
  expirationYear: string;
  @ApiPropertyOptional({ description: 'Absent when left blank', example: 'Work card' })
  nickname?: string;
  @ApiProperty({ description: 'Correlation id for support', example: '3f9a1c1e-6f7e-4b8e-9d0a-2a2f4f1f7c11' })
  requestId: string;
}
