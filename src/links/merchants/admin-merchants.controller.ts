import { Body, Controller, Param, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { AdminKeyGuard } from '../../tenants/admin-key.guard';
import { CreateMerchantDto, MerchantDto } from '../dto/merchant.dto';
import { MerchantsService } from './merchants.service';

@ApiTags('admin')
@ApiSecurity('adminKey')
@ApiErrors([401, 'admin_unauthorized', 'Missing or wrong X-Admin-Key'])
@UseGuards(AdminKeyGuard)
@Controller('admin/tenants/:tenantId/merchants')
export class AdminMerchantsController {
  constructor(private readonly merchants: MerchantsService) {}

  @Post()
  @ApiOperation({ operationId: 'adminAddMerchant', summary: 'Add a merchant to a tenant, with its own fee table if given (operator)' })
  @ApiCreatedResponse({ type: MerchantDto })
  @ApiErrors([400, 'fee_invalid', 'Invalid fields or fee table'], [404, 'tenant_not_found', 'No such tenant'])
  add(@Param('tenantId') tenantId: string, @Body() dto: CreateMerchantDto): Promise<MerchantDto> {
    return this.merchants.addByOperator(tenantId, dto);
  }
}
