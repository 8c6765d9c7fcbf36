import { Body, Controller, Get, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { PageQueryDto } from '../../kernel/platform/pagination/pagination';
import { AdminKeyGuard } from './admin-key.guard';
import { CreateTenantDto, TenantDto, TenantPageDto, UpdateTenantDto } from './dto/tenant.dto';
import { TenantsService } from './tenants.service';

@ApiTags('admin')
@ApiSecurity('adminKey')
@ApiErrors([401, 'admin_unauthorized', 'Missing or wrong X-Admin-Key'])
@UseGuards(AdminKeyGuard)
@Controller('admin/tenants')
export class AdminTenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @ApiOperation({ operationId: 'adminCreateTenant', summary: 'Create a tenant (operator)' })
  @ApiCreatedResponse({ type: TenantDto })
  @ApiErrors(400)
  create(@Body() dto: CreateTenantDto): Promise<TenantDto> {
    return this.tenants.create(dto);
  }

  @Get()
  @ApiOperation({ operationId: 'adminListTenants', summary: 'List tenants (operator)' })
  @ApiOkResponse({ type: TenantPageDto })
  @ApiErrors(400)
  list(@Query() q: PageQueryDto) {
    return this.tenants.list(q.limit, q.offset);
  }

  @Get(':tenantId')
  @ApiOperation({ operationId: 'adminGetTenant', summary: 'Get a tenant (operator)' })
  @ApiOkResponse({ type: TenantDto })
  @ApiErrors([404, 'tenant_not_found', 'No such tenant'])
  get(@Param('tenantId') id: string): Promise<TenantDto> {
    return this.tenants.get(id);
  }

  @Patch(':tenantId')
  @ApiOperation({ operationId: 'adminUpdateTenant', summary: 'Change a tenant: name, allow-list, rate limit, status (operator)' })
  @ApiOkResponse({ type: TenantDto })
  @ApiErrors(400, [404, 'tenant_not_found', 'No such tenant'])
  update(@Param('tenantId') id: string, @Body() dto: UpdateTenantDto): Promise<TenantDto> {
    return this.tenants.update(id, dto);
  }
}
