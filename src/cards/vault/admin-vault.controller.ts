import { QueryNumber } from '../../../kernel/platform/pagination/pagination';
import { Controller, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { AdminKeyGuard } from '../../tenants/admin-key.guard';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { RewrapReport, VaultRotation } from './vault-rotation';

export class RewrapQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 5000, default: 500, example: 500 })
  @IsOptional()
  @QueryNumber()
  @IsInt()
  @Min(1)
  @Max(5000)
  limit: number = 500;
}

export class RewrapReportDto implements RewrapReport {
  @ApiProperty({ example: 'k2' })
  activeKeyId: string;
  @ApiProperty({ description: 'Stored cards re-wrapped by this call', example: 500 })
  rewrapped: number;
  @ApiProperty({ description: 'Stored cards per master key id after the call', example: { k1: 120, k2: 880 } })
  byKey: Record<string, number>;
}

@ApiTags('admin')
@ApiSecurity('adminKey')
@ApiErrors([401, 'admin_unauthorized', 'Missing or wrong X-Admin-Key'])
@UseGuards(AdminKeyGuard)
@Controller('admin/cards/vault')
export class AdminVaultController {
  constructor(private readonly rotation: VaultRotation) {}

  @Post('rewrap')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminRewrapVault',
    summary: 'Re-wrap up to `limit` stored cards under the active master key (call until byKey shows only the active key id)',
  })
  @ApiOkResponse({ type: RewrapReportDto })
  @ApiErrors(400)
  rewrap(@Query() q: RewrapQueryDto): Promise<RewrapReport> {
    return this.rotation.rewrap(q.limit);
  }
}
