import { Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { AdminKeyGuard } from '../../tenants/admin-key.guard';
import { KeyDto } from '../dto/keys.dto';
import { AdminKeysService } from './admin-keys.service';

/** Operator routes: list a tenant's keys and revoke one (the spec: revocation is requested from support by keyId). */
@ApiTags('admin')
@ApiSecurity('adminKey')
@ApiErrors([401, 'admin_unauthorized', 'Missing or wrong X-Admin-Key'])
@UseGuards(AdminKeyGuard)
@Controller('admin/tenants/:tenantId/keys')
export class AdminKeysController {
  constructor(private readonly keys: AdminKeysService) {}

  @Get()
  @ApiOperation({ operationId: 'adminListKeys', summary: "List a tenant's keys and their state (operator)" })
  @ApiOkResponse({ type: [KeyDto] })
  list(@Param('tenantId') tenantId: string): Promise<KeyDto[]> {
    return this.keys.list(tenantId);
  }

  @Post(':keyId/revoke')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminRevokeKey',
    summary: 'Revoke a key: its credentials and tokens stop working on every replica within 2 s (operator)',
  })
  @ApiOkResponse({ type: KeyDto })
  @ApiErrors([404, 'key_not_found', 'No such key for this tenant'])
  revoke(@Param('tenantId') tenantId: string, @Param('keyId') keyId: string): Promise<KeyDto> {
    return this.keys.revoke(tenantId, keyId);
  }
}
