import { IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';
import { IsIsoDate } from '../../../kernel/common/dto/dates';
import { NestedObject } from '../../../kernel/common/dto/nested';

/** Bodies of the simulated acquirer's API (its own contract, reached by the HTTP client). */
export class CardDataDto {
  @IsString()
  @MaxLength(32)
  pan: string;

  @IsInt()
  @Min(1)
  @Max(12)
  expMonth: number;

  @IsInt()
  @Min(2000)
  @Max(2100)
  expYear: number;

  @IsOptional()
  @IsString()
  @Matches(/^\d{3,4}$/)
  cvv?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  holderName?: string;
}

export class ThreeDsDataDto {
  @IsOptional() @IsString() @MaxLength(200) cavv?: string;
  @IsOptional() @IsString() @MaxLength(10) eci?: string;
  @IsOptional() @IsString() @MaxLength(100) dsTransactionId?: string;
  @IsOptional() @IsString() @MaxLength(40) status?: string;
}

export class CardAuthorizationDto {
  @IsString() @Length(1, 100) transactionId: string;
  @IsString() @Length(1, 100) merchantId: string;
  @IsInt() @Min(1) @Max(99_999_999_999) amountCents: number;
  @IsInt() @Min(1) @Max(12) installments: number;
  @IsIn(['SALE', 'PREAUTH']) capture: 'SALE' | 'PREAUTH';
  @NestedObject(() => CardDataDto) card: CardDataDto;
  @IsOptional() @NestedObject(() => ThreeDsDataDto) threeDs?: ThreeDsDataDto;
}

export class CaptureDto {
  @IsOptional() @IsInt() @Min(1) @Max(99_999_999_999) amountCents?: number;
}

/** `CardRefundCall` of common/protocols/acquirer-refunds.ts. */
export class CardRefundDto {
  @IsString() @Length(1, 100) refundId: string;
  @IsInt() @Min(1) @Max(99_999_999_999) amountCents: number;
}

export class PixChargeDto {
  @IsString() @Length(1, 100) transactionId: string;
  @IsString() @Length(1, 100) merchantId: string;
  @IsOptional() @IsString() @MaxLength(100) merchantName?: string;
  @IsInt() @Min(1) @Max(99_999_999_999) amountCents: number;
  @IsOptional() @IsString() @MaxLength(100) payerName?: string;
  @IsInt() @Min(30) @Max(30 * 86400) expiresInSeconds: number;
}

export class BoletoPayerDto {
  @IsString() @Length(1, 100) name: string;
  @IsString() @Matches(/^(\d{11}|\d{14})$/) taxId: string;
}

export class BoletoDto {
  @IsString() @Length(1, 100) transactionId: string;
  @IsString() @Length(1, 100) merchantId: string;
  @IsInt() @Min(1) @Max(9_999_999_999) amountCents: number;
  @IsIsoDate() dueDate: string;
  @NestedObject(() => BoletoPayerDto) payer: BoletoPayerDto;
}
