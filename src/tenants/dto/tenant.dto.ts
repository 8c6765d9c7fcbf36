import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { TENANT_STATUSES, TenantStatus } from '../tenant.entity';
import { PageOf } from '../../../kernel/platform/pagination/pagination';

export class CreateTenantDto {
  @ApiProperty({ example: 'ACME Pagamentos Ltda', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({
    description: "IPv4 or IPv6 CIDRs (or bare addresses) allowed to call this tenant's routes",
    example: ['203.0.113.0/24', '2001:db8::/32'],
    type: [String],
  })
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  allowedCidrs: string[];

  @ApiPropertyOptional({ description: 'Requests per minute for this tenant', default: 100, minimum: 1, maximum: 10000000, example: 100 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000_000)
  rateLimitPerMinute?: number;
}

export class UpdateTenantDto extends PartialType(CreateTenantDto) {
  @ApiPropertyOptional({ enum: TENANT_STATUSES, example: 'ACTIVE' })
  @IsOptional()
  @IsIn(TENANT_STATUSES)
  status?: TenantStatus;
}

export class TenantDto {
  @ApiProperty({ example: '7d1c2a0e-5c1f-4f63-9c55-1f0b7f8a9e10' })
  tenantId: string;
  @ApiProperty({ example: 'ACME Pagamentos Ltda' })
  name: string;
  @ApiProperty({ type: [String], example: ['203.0.113.0/24'] })
  allowedCidrs: string[];
  @ApiProperty({ example: 100 })
  rateLimitPerMinute: number;
  @ApiProperty({ enum: TENANT_STATUSES, example: 'ACTIVE' })
  status: TenantStatus;
  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  createdAt: string;
  @ApiProperty({ example: '2026-11-20T12:00:00.000Z' })
  updatedAt: string;
}

export class TenantPageDto extends PageOf(TenantDto) {}
