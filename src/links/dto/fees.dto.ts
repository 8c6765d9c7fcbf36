import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { PositiveAmount } from '../../../kernel/common/dto/amount';

export class SimulateFeesDto {
  @PositiveAmount({ description: 'BRL. With passFee: what the merchant wants to receive; without: what the payer pays', example: 100.0 })
  amount: number;

  @ApiProperty({ enum: ['CARD', 'PIX', 'BOLETO'], example: 'CARD' })
  @IsIn(['CARD', 'PIX', 'BOLETO'])
  paymentMethod: 'CARD' | 'PIX' | 'BOLETO';

  @ApiPropertyOptional({ minimum: 1, maximum: 12, default: 1, example: 3, description: 'Card only (Pix and boleto: 1)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  installments?: number;

  @ApiPropertyOptional({ default: false, example: true })
  @IsOptional()
  @IsBoolean()
  passFee?: boolean;

  @ApiPropertyOptional({ description: "Whose fee table; default the tenant's own merchant", example: 'mer_3f9a1c1e6f7e4b8e' })
  @IsOptional()
  @IsString()
  @Length(1, 60)
  merchantId?: string;
}

/** One priced option: a method and an installment count. */
export class FeeOptionDto {
  @ApiProperty({ enum: ['CARD', 'PIX', 'BOLETO'], example: 'CARD' })
  paymentMethod: string;
  @ApiProperty({ example: 3 })
  installments: number;
  @ApiProperty({ description: 'Charged to the payer, BRL (grossed up when passFee)', example: 103.62 })
  grossAmount: number;
  @ApiProperty({ description: "The merchant's fee, BRL", example: 3.62 })
  fee: number;
  @ApiProperty({ description: 'What the merchant receives, BRL (before splits)', example: 100.0 })
  netAmount: number;
  @ApiProperty({ description: 'Each installment, BRL; the first carries any remainder cent', example: [34.54, 34.54, 34.54] })
  installmentAmounts: number[];
  @ApiProperty({ description: 'Rate applied, percent', example: 3.49 })
  feePercent: number;
  @ApiProperty({ description: 'Fixed part applied, BRL', example: 0 })
  feeFixed: number;
}

export class FeeSimulationResultDto extends FeeOptionDto {
  @ApiProperty({ example: 'mer_3f9a1c1e6f7e4b8e' })
  merchantId: string;
  @ApiProperty({ example: true })
  passFee: boolean;
  @ApiProperty({ description: 'The amount asked about, BRL', example: 100.0 })
  amount: number;
}

/** Returned when creating a fixed-amount link: every option the payer will see. */
export class LinkFeeSimulationDto {
  @ApiProperty({ example: 100.0 })
  amount: number;
  @ApiProperty({ example: true })
  passFee: boolean;
  @ApiProperty({ example: 'mer_3f9a1c1e6f7e4b8e' })
  merchantId: string;
  @ApiProperty({ type: [FeeOptionDto] })
  options: FeeOptionDto[];
}
