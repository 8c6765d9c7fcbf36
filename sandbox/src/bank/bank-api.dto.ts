import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { IsIsoDate, isIsoDate } from '../../../kernel/common/dto/dates';
import { NestedArray, NestedObject } from '../../../kernel/common/dto/nested';
import { MAX_CENTS } from '../../../kernel/common/formats/money';

export class BankReceiverDto {
  @ApiProperty({ example: '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10' })
  @IsString()
  @Length(1, 64)
  id: string;
  @ApiProperty({ example: 'ACME Academia' })
  @IsString()
  @Length(1, 200)
  name: string;
}

export class BankRecurrenceRequestDto {
  @ApiProperty({ example: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  @IsString()
  @Length(1, 64)
  recurrenceId: string;
  @ApiProperty({ example: 'RRK3T8W1ZP5R6N0D2F4H3J6L7Q2C4M9X' })
  @IsString()
  @Length(1, 64)
  idTx: string;
  @ApiProperty({ type: BankReceiverDto })
  @NestedObject(() => BankReceiverDto)
  receiver: BankReceiverDto;
  @ApiProperty({ example: 4990 })
  @IsInt()
  @Min(1)
  @Max(MAX_CENTS)
  amountCents: number;
  @ApiProperty({ example: 'BRL' })
  @IsIn(['BRL'])
  currency: string;
  @ApiProperty({ example: 'MONTHLY' })
  @IsString()
  periodicity: string;
  @ApiProperty({ example: '2026-12-10' })
  @IsIsoDate()
  firstDueDate: string;
  @ApiPropertyOptional({ nullable: true, example: null })
  @IsOptional()
  @IsIsoDate()
  expirationDate: string | null;
  @ApiProperty({ example: 'MOVE_FORWARD_NEXT_BUSINESS_DAY' })
  @IsString()
  dayAdjustment: string;
  @ApiProperty({ example: 'Maria Souza' })
  @IsString()
  payerName: string;
  @ApiProperty({ example: '52998224725' })
  @Matches(/^(\d{11}|\d{14})$/)
  payerTaxId: string;
  @ApiPropertyOptional({ nullable: true, example: 'Plano mensal' })
  @IsOptional()
  @IsString()
  description: string | null;
}

export class BankBillingDto {
  @ApiProperty({ example: 'BL7Q2C4M9XK3T8W1ZP5R6N0D2F4H3J6L' })
  @IsString()
  @Length(1, 64)
  idTx: string;
  @ApiProperty({ example: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e' })
  @IsString()
  @Length(1, 64)
  billingId: string;
  @ApiProperty({ example: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  @IsString()
  @Length(1, 64)
  recurrenceId: string;
  @ApiProperty({ example: 4990 })
  @IsInt()
  @Min(1)
  @Max(MAX_CENTS)
  amountCents: number;
  @ApiProperty({ example: 'BRL' })
  @IsIn(['BRL'])
  currency: string;
  @ApiProperty({ example: '2026-12-10' })
  @IsIsoDate()
  dueDate: string;
}

export class BankBillingBatchDto {
  @ApiProperty({ type: [BankBillingDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(5000)
  @NestedArray(() => BankBillingDto)
  billings: BankBillingDto[];
}

export class BankCancelBillingDto {
  @ApiProperty({ example: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  @IsString()
  @Length(1, 64)
  recurrenceId: string;
}

const BILLING_FIELDS: [keyof BankBillingDto, (v: unknown) => boolean][] = [
  ['idTx', (v) => typeof v === 'string' && v.length >= 1 && v.length <= 64],
  ['billingId', (v) => typeof v === 'string' && v.length >= 1 && v.length <= 64],
  ['recurrenceId', (v) => typeof v === 'string' && v.length >= 1 && v.length <= 64],
  ['amountCents', (v) => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= MAX_CENTS],
  ['currency', (v) => v === 'BRL'],
  ['dueDate', isIsoDate],
];

/**
 * The batch body checked by hand: it carries up to 5000 billings, and the generic class
 * validation costs more than the bank's whole work on them. Same rules as BankBillingDto.
 */
export function parseBillingBatch(body: unknown): { billings: BankBillingDto[]; problems: { field: string; message: string }[] } {
  const list = (body as { billings?: unknown } | null)?.billings;
  if (!Array.isArray(list) || list.length < 1 || list.length > 5000)
    return { billings: [], problems: [{ field: 'billings', message: 'must be an array of 1 to 5000 billings' }] };
  const problems: { field: string; message: string }[] = [];
  for (let i = 0; i < list.length && problems.length < 20; i++) {
    const b = list[i] as Record<string, unknown> | null;
    if (!b || typeof b !== 'object') {
      problems.push({ field: `billings[${i}]`, message: 'must be an object' });
      continue;
    }
    for (const [field, ok] of BILLING_FIELDS) if (!ok(b[field])) problems.push({ field: `billings[${i}].${field}`, message: 'is invalid' });
  }
  return { billings: list as BankBillingDto[], problems };
}
