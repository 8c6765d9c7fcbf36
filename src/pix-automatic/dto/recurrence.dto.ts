import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { IsIn, IsOptional, IsPositive, IsString, Length, Matches, Max, MaxLength } from 'class-validator';
import { NestedObject } from '../../../kernel/common/dto/nested';
import { IsMoney } from '../../../kernel/common/dto/amount';
import { IsTaxId } from '../../../kernel/common/tax-id';
import { PageOf, PageQueryDto, QueryNumber } from '../../../kernel/platform/pagination/pagination';
import { DayAdjustment, Periodicity } from '../domain/calendar';
import { RecurrenceStatus } from '../domain/recurrence.state-machine';
import { IsIsoDate, NotBefore, NotInPast } from './date-rules';

export const PERIODICITIES = Object.values(Periodicity);
export const DAY_ADJUSTMENTS = Object.values(DayAdjustment);
export const RECURRENCE_STATUSES = Object.values(RecurrenceStatus);
/** Largest amount accepted (R$ 10 million); the spec shows no maximum. */
export const MAX_AMOUNT = 10_000_000;

/** The payer's account at their bank, to which an authorization request is pushed (Jornada 1). */
export class PayerBankAccountDto {
  @ApiProperty({ description: "ISPB of the payer's bank (8 characters)", example: '91193552', pattern: '^[0-9A-Z]{8}$' })
  @Matches(/^[0-9A-Z]{8}$/, { message: 'ispb must be 8 digits or capital letters' })
  ispb: string;

  @ApiPropertyOptional({ description: 'Branch (agência), up to 4 digits', example: '2569' })
  @IsOptional()
  @Matches(/^\d{1,4}$/, { message: 'branch must be 1 to 4 digits' })
  branch?: string;

  @ApiProperty({ description: 'Account number, up to 20 digits', example: '550689' })
  @Matches(/^\d{1,20}$/, { message: 'account must be 1 to 20 digits' })
  account: string;
}

export class CreateRecurrenceDto {
  @ApiProperty({ description: 'Amount in BRL, > 0, at most 2 decimals', example: 49.9 })
  @IsMoney({ message: 'amount must be a number with at most 2 decimals' })
  @IsPositive({ message: 'amount must be greater than 0' })
  @Max(MAX_AMOUNT)
  amount: number;

  @ApiProperty({ enum: ['BRL'], example: 'BRL' })
  @IsIn(['BRL'], { message: 'currency must be BRL' })
  currency: 'BRL';

  @ApiProperty({
    enum: PERIODICITIES,
    example: 'MONTHLY',
    description:
      "How often a billing falls due. With BANK_PROVIDER=pix-api (the Central Bank's API Pix, which has SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL and ANUAL only) DAILY and BIMONTHLY are refused with 400 periodicity_not_supported naming the provider; the default provider (service) has all seven.",
  })
  @IsIn(PERIODICITIES, { message: `periodicity must be one of ${PERIODICITIES.join(', ')}` })
  periodicity: Periodicity;

  @ApiProperty({ description: 'First due date, not in the past (America/Sao_Paulo)', example: '2026-12-10' })
  @IsIsoDate()
  @NotInPast()
  firstDueDate: string;

  @ApiPropertyOptional({ description: 'Last day of the term; on or after firstDueDate', example: '2027-12-10' })
  @IsOptional()
  @IsIsoDate()
  @NotBefore('firstDueDate')
  expirationDate?: string;

  @ApiPropertyOptional({ enum: DAY_ADJUSTMENTS, default: 'MOVE_FORWARD_NEXT_BUSINESS_DAY', example: 'MOVE_FORWARD_NEXT_BUSINESS_DAY' })
  @IsOptional()
  @IsIn(DAY_ADJUSTMENTS, { message: `dayAdjustment must be one of ${DAY_ADJUSTMENTS.join(', ')}` })
  dayAdjustment?: DayAdjustment;

  @ApiProperty({ example: 'Maria Souza', minLength: 1, maxLength: 140 })
  @IsString()
  @Length(1, 140)
  payerName: string;

  @ApiProperty({ description: 'CPF (11 digits) or CNPJ (14 digits), digits only', example: '52998224725' })
  @IsTaxId()
  payerTaxId: string;

  @ApiPropertyOptional({ example: 'Plano mensal academia', maxLength: 500 })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({
    type: PayerBankAccountDto,
    description:
      "Also push the authorization request to the payer's bank (the standard's Jornada 1, `POST /solicrec`): the payer authorizes in their bank app without reading the QR. Only with BANK_PROVIDER=pix-api; the `service` provider answers 400 push_authorization_not_supported. The authorizationUrl (QR, Jornada 2) is answered either way.",
  })
  @IsOptional()
  @NestedObject(() => PayerBankAccountDto)
  payerBankAccount?: PayerBankAccountDto;
}

export class RecurrenceCreatedDto {
  @ApiProperty({ example: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  recurrenceId: string;
  @ApiProperty({ enum: ['PENDING'], example: 'PENDING' })
  status: string;
  @ApiProperty({
    description: 'Show it to the payer as a link, QR code or button',
    example: 'https://api.example.com/sandbox/bank/authorize/0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c',
  })
  authorizationUrl: string;
}

export class RecurrenceStatusDto {
  @ApiProperty({ example: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  recurrenceId: string;
  @ApiProperty({ enum: RECURRENCE_STATUSES, example: 'ACCEPTED' })
  status: string;
}

export class RecurrenceDto {
  @ApiProperty({ example: '0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  recurrenceId: string;
  @ApiProperty({ enum: RECURRENCE_STATUSES, example: 'ACTIVE' })
  status: string;
  @ApiProperty({ example: 49.9 })
  amount: number;
  @ApiProperty({ enum: ['BRL'], example: 'BRL' })
  currency: string;
  @ApiProperty({ enum: PERIODICITIES, example: 'MONTHLY' })
  periodicity: string;
  @ApiProperty({ example: '2026-12-10' })
  firstDueDate: string;
  @ApiProperty({ nullable: true, example: '2027-12-10' })
  expirationDate: string | null;
  @ApiProperty({ enum: DAY_ADJUSTMENTS, example: 'MOVE_FORWARD_NEXT_BUSINESS_DAY' })
  dayAdjustment: string;
  @ApiProperty({ example: 'Maria Souza' })
  payerName: string;
  @ApiProperty({ example: '52998224725' })
  payerTaxId: string;
  @ApiProperty({ nullable: true, example: 'Plano mensal academia' })
  description: string | null;
  @ApiProperty({ example: 'https://api.example.com/sandbox/bank/authorize/0f9a8b7c-6d5e-4f3a-9b2c-1d0e9f8a7b6c' })
  authorizationUrl: string;
  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  createdAt: string;
  @ApiProperty({ example: '2026-11-21T09:30:00.000Z' })
  updatedAt: string;
}

export class RecurrencePageDto extends PageOf(RecurrenceDto) {}

export class ListRecurrencesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ example: '52998224725' })
  @IsOptional()
  @IsString()
  @Length(11, 14)
  payerTaxId?: string;

  @ApiPropertyOptional({ example: 49.9 })
  @IsOptional()
  @QueryNumber()
  @IsMoney()
  @IsPositive()
  amount?: number;

  @ApiPropertyOptional({ example: '2026-12-10' })
  @IsOptional()
  @IsIsoDate()
  firstDueDate?: string;

  @ApiPropertyOptional({ enum: RECURRENCE_STATUSES, example: 'ACTIVE' })
  @IsOptional()
  @IsIn(RECURRENCE_STATUSES)
  status?: RecurrenceStatus;
}
