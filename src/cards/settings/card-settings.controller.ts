import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../../gateway/tenant-context';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { CardSettingsDto, PutCardSettingsDto } from '../dto/card-settings.dto';
import { CardSettingsService } from './card-settings.service';

@ApiTags('card tokenization')
@TenantRoute()
@Controller('v1/acquiring/card-settings')
export class CardSettingsController {
  constructor(private readonly settings: CardSettingsService) {}

  @Get()
  @ApiOperation({ operationId: 'getCardSettings', summary: 'Hosted card page settings of the tenant (frame ancestors)' })
  @ApiOkResponse({ type: CardSettingsDto })
  get(@CurrentTenant() t: TenantContext): Promise<CardSettingsDto> {
    return this.settings.get(t.tenantId);
  }

  @Put()
  @ApiOperation({
    operationId: 'putCardSettings',
    summary: 'Set the origins allowed to frame the hosted card page and receive its messages',
    description: 'Replaces the list. Applies to every session, also ones already created, from their next page load.',
  })
  @ApiOkResponse({ type: CardSettingsDto })
  @ApiErrors(400)
  put(@CurrentTenant() t: TenantContext, @Body() dto: PutCardSettingsDto): Promise<CardSettingsDto> {
    return this.settings.put(t.tenantId, dto.frameAncestors);
  }
}
