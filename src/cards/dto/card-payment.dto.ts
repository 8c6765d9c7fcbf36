import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { NestedObject } from '../../../kernel/common/dto/nested';
import { IsMoney } from '../../../kernel/common/dto/amount';
import { IsTaxId } from '../../../kernel/common/tax-id';
import { CARD_PAYMENT_STATUSES, CardPaymentStatus } from '../../provider/acquirer/card-charge.state-machine';
import { PageOf } from '../../../kernel/platform/pagination/pagination';

export class TokenDataDto {
  @ApiPropertyOptional({
    description: 'Stored card reference (charged card-on-file, without security code)',
    example: 'sc_x4Q0yTj9V4s1H2b8w3nKzA',
  })
  @IsOptional()
  @IsString()
  @Matches(/^sc_[A-Za-z0-9_-]{16,64}$/, { message: 'slugStoredCard is not a stored card reference' })
  slugStoredCard?: string;

  @ApiPropertyOptional({
    description: 'Single-use token from tokenization (charged with the security code when this replica still holds it)',
    example: 'tk_pZ3n1K0bq9d2mY7rV5cXwg',
  })
  @IsOptional()
  @IsString()
  @Matches(/^tk_[A-Za-z0-9_-]{16,64}$/, { message: 'slugToken is not a token reference' })
  slugToken?: string;
}

export class ThreeDsDataDto {
  @ApiProperty({ description: 'Directory server transaction id from the 3DS result', example: '3b2a6a4e-7a3b-4d8e-9f11-0c2d6a1b9e77' })
  @IsString()
  @MaxLength(64)
  dsTransactionId: string;

  @ApiPropertyOptional({
    description: 'Cardholder authentication verification value (present when authenticated)',
    example: 'AAABBZEEBgAAAAAAAAQGAAAAAAA=',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  cavv?: string;

  @ApiProperty({ description: 'Electronic commerce indicator from the 3DS result', example: '05' })
  @IsString()
  @Matches(/^\d{2}$/)
  eci: string;
}

export class CreateCardPaymentDto {
  @ApiProperty({ description: 'Amount in BRL (currency units, at most 2 decimals)', example: 150.75 })
  @IsMoney()
  @Min(0.01)
  @Max(10_000_000)
  amount: number;

  @ApiPropertyOptional({ enum: ['BRL'], default: 'BRL' })
  @IsOptional()
  @IsIn(['BRL'])
  currency?: 'BRL';

  @ApiPropertyOptional({ description: 'Installments, 1 to 12', default: 1, minimum: 1, maximum: 12, example: 3 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  installments?: number;

  @ApiPropertyOptional({
    description:
      '`SALE`: authorize and capture at once (status ACCEPTED). `PREAUTH`: authorize only (status PREAUTH), then capture or void.',
    enum: ['SALE', 'PREAUTH'],
    default: 'SALE',
  })
  @IsOptional()
  @IsIn(['SALE', 'PREAUTH'])
  captureMode?: 'SALE' | 'PREAUTH';

  @ApiProperty({ type: TokenDataDto, description: 'Exactly one of slugStoredCard or slugToken' })
  @IsDefined()
  @NestedObject(() => TokenDataDto)
  tokenData: TokenDataDto;

  @ApiPropertyOptional({ type: ThreeDsDataDto, description: 'The 3DS result (FRICTIONLESS or after the challenge)' })
  @IsOptional()
  @NestedObject(() => ThreeDsDataDto)
  threeDsData?: ThreeDsDataDto;

  @ApiPropertyOptional({ description: 'Merchant CPF/CNPJ (digits only) the payment is for', example: '11222333000181' })
  @IsOptional()
  @IsTaxId()
  documentId?: string;

  @ApiPropertyOptional({ description: 'Free text for your reconciliation (max 200)', example: 'Order 1234' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  description?: string;
}

export class CapturePaymentDto {
  @ApiPropertyOptional({ description: 'Amount to capture (default: the authorized amount; at most it)', example: 150.75 })
  @IsOptional()
  @IsMoney()
  @Min(0.01)
  amount?: number;
}

export class PaymentThreeDsDto {
  @ApiProperty({ enum: ['Y', 'N', 'U'], example: 'Y' })
  transStatus: string;
  @ApiProperty({ example: '05', nullable: true })
  eci: string | null;
}

export class CardPaymentDto {
  @ApiProperty({ example: 'pay_1q2w3e4r5t6y7u8i9o0pAA' })
  paymentId: string;
  @ApiProperty({
    description: 'The request was accepted; the result also reaches you by the acquiring.financial_transaction webhook',
    example: true,
  })
  accepted: boolean;
  @ApiProperty({ enum: CARD_PAYMENT_STATUSES, example: 'ACCEPTED' })
  status: CardPaymentStatus;
  @ApiProperty({ enum: ['CARD'], example: 'CARD' })
  transactionMethod: 'CARD';
  @ApiProperty({ example: 150.75 })
  amount: number;
  @ApiPropertyOptional({ example: 150.75 })
  capturedAmount?: number;
  @ApiProperty({ enum: ['BRL'], example: 'BRL' })
  currency: 'BRL';
  @ApiProperty({ example: 1 })
  installments: number;
  @ApiProperty({ enum: ['SALE', 'PREAUTH'], example: 'SALE' })
  captureMode: 'SALE' | 'PREAUTH';
  @ApiProperty({ example: 'sc_x4Q0yTj9V4s1H2b8w3nKzA' })
  slugStoredCard: string;
  @ApiProperty({ example: 'VISA' })
  brand: string;
  @ApiProperty({ example: '4111' })
  first4: string;
  @ApiProperty({ example: '1111' })
  last4: string;
  @ApiProperty({
    description: 'Whether the security code went to the acquirer (only with a slugToken, on the replica that tokenized)',
    example: true,
  })
  securityCodePresented: boolean;
  @ApiPropertyOptional({ type: PaymentThreeDsDto })
  threeDs?: PaymentThreeDsDto;
  @ApiPropertyOptional({ example: 'A1B2C3' })
  authorizationCode?: string;
  @ApiPropertyOptional({ description: 'Why it was refused or failed', example: 'insufficient_funds' })
  reason?: string;
  @ApiPropertyOptional({ example: '11222333000181' })
  documentId?: string;
  @ApiPropertyOptional({ example: 'Order 1234' })
  description?: string;
  @ApiProperty({ example: '2026-11-20T12:00:00Z' })
  createdAt: string;
  @ApiProperty({ example: '2026-11-20T12:00:01Z' })
  updatedAt: string;
  @ApiPropertyOptional({ example: '2026-11-20T13:00:00Z' })
  capturedAt?: string;
  @ApiPropertyOptional({ example: '2026-11-20T13:00:00Z' })
  voidedAt?: string;
  @ApiPropertyOptional({ description: 'Refunded so far (pending or done; a payment that took money always says it)', example: 40.5 })
  refundedAmount?: number;
  @ApiPropertyOptional({ description: 'Held by a chargeback that stands', example: 0 })
  disputedAmount?: number;
  @ApiPropertyOptional({ description: 'What can still be refunded', example: 110.25 })
  refundableAmount?: number;
}

export class CardPaymentPageDto extends PageOf(CardPaymentDto) {}
