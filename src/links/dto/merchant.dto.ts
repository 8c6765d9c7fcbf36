import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { NestedObject } from '../../../kernel/common/dto/nested';
import { IsMoney } from '../../../kernel/common/dto/amount';
import { IsTaxId } from '../../../kernel/common/tax-id';

const PERCENT_EXAMPLE = { 1: 2.99, 2: 3.49, 3: 3.49, 4: 3.49, 5: 3.49, 6: 3.49, 7: 3.99, 8: 3.99, 9: 3.99, 10: 3.99, 11: 3.99, 12: 3.99 };

export class CardFeesDto {
  @ApiProperty({
    description: 'Percent of the gross per installment count, keys "1" to "12" (at most 2 decimals)',
    example: PERCENT_EXAMPLE,
  })
  @IsObject()
  percentByInstallments: Record<string, number>;
  @ApiProperty({ description: 'Fixed part per transaction, BRL', example: 0 })
  @IsMoney()
  @Min(0)
  fixed: number;
}

export class PixFeesDto {
  @ApiProperty({ example: 0.99 })
  @IsMoney()
  @Min(0)
  @Max(99.99)
  percent: number;
  @ApiProperty({ example: 0 })
  @IsMoney()
  @Min(0)
  fixed: number;
}

export class BoletoFeesDto {
  @ApiProperty({ description: 'Per paid boleto, BRL', example: 3.49 })
  @IsMoney()
  @Min(0)
  fixed: number;
}

/** A merchant's fee table in API units: percentages and BRL amounts. */
export class FeeTableDto {
  @ApiProperty({ type: CardFeesDto })
  @IsDefined()
  @IsObject()
  @NestedObject(() => CardFeesDto)
  CARD: CardFeesDto;
  @ApiProperty({ type: PixFeesDto })
  @IsDefined()
  @IsObject()
  @NestedObject(() => PixFeesDto)
  PIX: PixFeesDto;
  @ApiProperty({ type: BoletoFeesDto })
  @IsDefined()
  @IsObject()
  @NestedObject(() => BoletoFeesDto)
  BOLETO: BoletoFeesDto;
}

export class MerchantDto {
  @ApiProperty({ example: 'mer_3f9a1c1e6f7e4b8e' })
  merchantId: string;
  @ApiProperty({ example: 'Loja Principal' })
  name: string;
  @ApiProperty({ nullable: true, type: String, example: '11222333000181' })
  taxId: string | null;
  @ApiProperty({ description: "The tenant's own merchant: it owns the tenant's links and must be in every split", example: true })
  isOwner: boolean;
  @ApiProperty({ description: 'Fees charged on this merchant (its own table or the default one)', type: FeeTableDto })
  fees: FeeTableDto;
  @ApiProperty({ enum: ['SANDBOX', 'ADMIN'], example: 'SANDBOX' })
  source: string;
  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  createdAt: string;
}

export class MerchantListDto {
  @ApiProperty({ example: 3 })
  total: number;
  @ApiProperty({ type: [MerchantDto] })
  items: MerchantDto[];
}

export class CreateMerchantDto {
  @ApiProperty({ example: 'Parceiro Logística' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiPropertyOptional({ example: '11222333000181', description: 'CPF or CNPJ, digits only' })
  @IsOptional()
  @IsTaxId()
  taxId?: string;

  @ApiPropertyOptional({ description: "Make it the tenant's own merchant (only when the tenant has none yet)", example: false })
  @IsOptional()
  @IsBoolean()
  isOwner?: boolean;

  @ApiPropertyOptional({ type: FeeTableDto, description: 'Fees of this merchant; absent = the default table (LINKS_DEFAULT_FEE_TABLE)' })
  @IsOptional()
  @IsObject()
  @NestedObject(() => FeeTableDto)
  fees?: FeeTableDto;
}
