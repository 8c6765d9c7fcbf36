import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { NestedArray, NestedObject } from '../../../kernel/common/dto/nested';
import { IsMoney, PositiveAmount } from '../../../kernel/common/dto/amount';
import { PageOf, PageQueryDto } from '../../../kernel/platform/pagination/pagination';
import { LinkFeeSimulationDto } from './fees.dto';

export class SplitShareDto {
  @ApiProperty({ example: 'mer_3f9a1c1e6f7e4b8e' })
  @IsString()
  @Length(1, 60)
  merchantId: string;

  @ApiPropertyOptional({
    description: 'Percent of what is left after fixed shares (0 < p <= 100, 2 decimals); give this or amount',
    example: 70,
  })
  @IsOptional()
  @IsMoney()
  percentage?: number;

  @ApiPropertyOptional({ description: 'Fixed share, BRL; give this or percentage', example: 10.0 })
  @IsOptional()
  @IsMoney()
  amount?: number;
}

export class ActorDto {
  @ApiProperty({ description: 'Receives a notice per confirmed payment when notifyEmail is true', example: 'finance@acme.com.br' })
  @IsEmail()
  @MaxLength(200)
  email: string;
}

const METHODS = ['CARD', 'PIX', 'BOLETO'] as const;

/** Create a payment link (PATCH takes the same fields, all optional). */
export class CreateLinkDto {
  @ApiProperty({ example: 'Curso de fotografia' })
  @IsString()
  @Length(1, 120)
  name: string;

  @ApiPropertyOptional({ example: 'Turma de dezembro, 8 aulas' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional({
    nullable: true,
    description: 'Fixed price, BRL. Absent or null: open amount (the payer types it)',
    example: 150.0,
  })
  @IsOptional()
  @IsMoney()
  @IsPositive()
  amount?: number | null;

  @PositiveAmount({ description: 'Open amount only: least the payer may type, BRL', example: 10.0 }, { optional: true })
  minAmount?: number | null;

  @PositiveAmount({ description: 'Open amount only: most the payer may type, BRL', example: 5000.0 }, { optional: true })
  maxAmount?: number | null;

  @ApiProperty({ enum: METHODS, isArray: true, example: ['CARD', 'PIX', 'BOLETO'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  @ArrayUnique()
  @IsIn(METHODS, { each: true })
  paymentMethods: ('CARD' | 'PIX' | 'BOLETO')[];

  @ApiPropertyOptional({
    minimum: 1,
    maximum: 12,
    default: 1,
    example: 6,
    description: 'Card installments offered, 1x to maxInstallments x',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  maxInstallments?: number;

  @ApiPropertyOptional({
    default: false,
    example: true,
    description: 'Gross the price up so the owner nets it exactly (the payer pays the fee)',
  })
  @IsOptional()
  @IsBoolean()
  passFee?: boolean;

  @ApiPropertyOptional({
    type: [SplitShareDto],
    description: "Distribution among merchants; the owner (the tenant's own merchant) must be in it",
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @NestedArray(() => SplitShareDto)
  splits?: SplitShareDto[] | null;

  @ApiPropertyOptional({ nullable: true, minimum: 1, example: 100, description: 'At most this many confirmed payments; then EXHAUSTED' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxUses?: number | null;

  @ApiPropertyOptional({
    nullable: true,
    minimum: 1,
    maximum: 100_000,
    example: 300,
    description:
      'Checkout payment attempts this link takes per minute, from all payers together (a brake on card testing spread over many IPs); beyond it 429 `rate_limited`. Null: no per-link brake (the per-IP CHECKOUT_RATE_LIMIT_PER_MINUTE still applies)',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000)
  checkoutAttemptsPerMinute?: number | null;

  @ApiPropertyOptional({ nullable: true, example: '2026-12-31T23:59:59Z', description: 'After it the link is EXPIRED' })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string | null;

  @ApiPropertyOptional({ default: false, example: true })
  @IsOptional()
  @IsBoolean()
  notifyEmail?: boolean;

  @ApiPropertyOptional({ type: ActorDto })
  @IsOptional()
  @NestedObject(() => ActorDto)
  actor?: ActorDto | null;
}

export class UpdateLinkDto {
  @ApiPropertyOptional({ example: 'Curso de fotografia (turma 2)' })
  @IsOptional()
  @IsString()
  @Length(1, 120)
  name?: string;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @PositiveAmount({ nullable: true, example: 180.0 }, { optional: true })
  amount?: number | null;

  @PositiveAmount({ nullable: true }, { optional: true })
  minAmount?: number | null;

  @PositiveAmount({ nullable: true }, { optional: true })
  maxAmount?: number | null;

  @ApiPropertyOptional({ enum: METHODS, isArray: true })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(3)
  @ArrayUnique()
  @IsIn(METHODS, { each: true })
  paymentMethods?: ('CARD' | 'PIX' | 'BOLETO')[];

  @ApiPropertyOptional({ minimum: 1, maximum: 12 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  maxInstallments?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  passFee?: boolean;

  @ApiPropertyOptional({ type: [SplitShareDto], nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @NestedArray(() => SplitShareDto)
  splits?: SplitShareDto[] | null;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  maxUses?: number | null;

  @ApiPropertyOptional({ nullable: true, minimum: 1, maximum: 100_000, example: 300 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000)
  checkoutAttemptsPerMinute?: number | null;

  @ApiPropertyOptional({ nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string | null;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  notifyEmail?: boolean;

  @ApiPropertyOptional({ type: ActorDto, nullable: true })
  @IsOptional()
  @NestedObject(() => ActorDto)
  actor?: ActorDto | null;
}

export class LinkStatusDto {
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE'], example: 'INACTIVE', description: 'EXPIRED and EXHAUSTED are set by the service only' })
  @IsString()
  status: string;
}

export class LinkListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ['ACTIVE', 'INACTIVE', 'EXPIRED', 'EXHAUSTED'] })
  @IsOptional()
  @IsIn(['ACTIVE', 'INACTIVE', 'EXPIRED', 'EXHAUSTED'])
  status?: string;
}

export class SplitDto {
  @ApiProperty({ example: 'mer_3f9a1c1e6f7e4b8e' })
  merchantId: string;
  @ApiPropertyOptional({ example: 70 })
  percentage?: number;
  @ApiPropertyOptional({ example: 10.0 })
  amount?: number;
}

export class LinkDto {
  @ApiProperty({ example: '6f1d8a52-3c1b-4e8e-9a57-0c1f2d3e4b5a' })
  linkId: string;
  @ApiProperty({ example: 'q7Xk2mP9aZ' })
  slug: string;
  @ApiProperty({ example: 'https://pay.example.com/checkout/q7Xk2mP9aZ' })
  checkoutUrl: string;
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE', 'EXPIRED', 'EXHAUSTED'], example: 'ACTIVE' })
  status: string;
  @ApiProperty({ example: 'Curso de fotografia' })
  name: string;
  @ApiProperty({ nullable: true, type: String, example: 'Turma de dezembro' })
  description: string | null;
  @ApiProperty({ nullable: true, type: Number, description: 'null: open amount', example: 150.0 })
  amount: number | null;
  @ApiProperty({ nullable: true, type: Number, example: null })
  minAmount: number | null;
  @ApiProperty({ nullable: true, type: Number, example: null })
  maxAmount: number | null;
  @ApiProperty({ enum: METHODS, isArray: true, example: ['CARD', 'PIX', 'BOLETO'] })
  paymentMethods: string[];
  @ApiProperty({ example: 6 })
  maxInstallments: number;
  @ApiProperty({ example: true })
  passFee: boolean;
  @ApiProperty({ type: [SplitDto] })
  splits: SplitDto[];
  @ApiProperty({ description: 'The merchant that owns the link', example: 'mer_3f9a1c1e6f7e4b8e' })
  ownerMerchantId: string;
  @ApiProperty({ nullable: true, type: Number, example: 100 })
  maxUses: number | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    example: 300,
    description: 'Checkout attempts per minute this link takes from all payers together; null: no per-link brake',
  })
  checkoutAttemptsPerMinute: number | null;
  @ApiProperty({ nullable: true, type: String, example: '2026-12-31T23:59:59.000Z' })
  expiresAt: string | null;
  @ApiProperty({ example: true })
  notifyEmail: boolean;
  @ApiProperty({ nullable: true, type: ActorDto })
  actor: { email: string } | null;
  @ApiProperty({ description: 'Checkout page loads', example: 42 })
  viewCount: number;
  @ApiProperty({ description: 'Payment attempts (every item in payments)', example: 5 })
  attemptCount: number;
  @ApiProperty({ description: 'Items that reached a paid status', example: 3 })
  paidCount: number;
  @ApiProperty({
    description:
      'Sum of the amounts of paid items less what went back (totalRefunded and totalDisputed), BRL; the gross is totalPaid + totalRefunded + totalDisputed',
    example: 450.0,
  })
  totalPaid: number;
  @ApiPropertyOptional({
    description: "Refunds of the link's payments, pending or done (a failed one gives its amount back), BRL",
    example: 0,
  })
  totalRefunded?: number;
  @ApiPropertyOptional({ description: "Taken back from the link's payments without being asked (Pix MED devoluções), BRL", example: 0 })
  totalDisputed?: number;
  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  createdAt: string;
  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  updatedAt: string;
}

export class CreatedLinkDto extends LinkDto {
  @ApiProperty({
    nullable: true,
    type: LinkFeeSimulationDto,
    description: 'Every option the payer will see (fixed amount); null for an open amount',
  })
  feeSimulation: LinkFeeSimulationDto | null;
}

export class LinkPageDto extends PageOf(LinkDto) {}
