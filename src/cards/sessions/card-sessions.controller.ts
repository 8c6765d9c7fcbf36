import { Body, Controller, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../../gateway/tenant-context';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { CardSessionDto, CreateCardSessionDto } from '../dto/card-session.dto';
import { CardSessionsService } from './card-sessions.service';

@ApiTags('card tokenization')
@TenantRoute()
@Controller('v1/acquiring/card-sessions')
export class CardSessionsController {
  constructor(private readonly sessions: CardSessionsService) {}

  @Post()
  @ApiOperation({
    operationId: 'createCardSession',
    summary: 'Create a hosted card session (server side only): a single-use hostedCardUrl valid 15 minutes',
    description:
      'Create a new session for every attempt. Hand hostedCardUrl to the React Native component or frame it in your web page (see card-settings).',
  })
  @ApiCreatedResponse({ type: CardSessionDto })
  @ApiErrors([400, 'validation_error', 'Invalid documentId (CPF/CNPJ check digits); `parent_origin_not_allowed`'])
  create(@CurrentTenant() t: TenantContext, @Body() dto: CreateCardSessionDto): Promise<CardSessionDto> {
    return this.sessions.create(t.tenantId, dto);
  }
}
