import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../../gateway/tenant-context';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { Page, PageQueryDto } from '../../../kernel/platform/pagination/pagination';
import { StoredCardDto, StoredCardPageDto } from '../dto/stored-card.dto';
import { StoredCardsService } from './stored-cards.service';

@ApiTags('card tokenization')
@TenantRoute()
@Controller('v1/acquiring/stored-cards')
export class StoredCardsController {
  constructor(private readonly cards: StoredCardsService) {}

  @Get()
  @ApiOperation({ operationId: 'listStoredCards', summary: "The tenant's stored cards (display values and slugStoredCard), newest first" })
  @ApiOkResponse({ type: StoredCardPageDto })
  @ApiErrors(400)
  list(@CurrentTenant() t: TenantContext, @Query() q: PageQueryDto): Promise<Page<StoredCardDto>> {
    return this.cards.list(t.tenantId, q);
  }
}
