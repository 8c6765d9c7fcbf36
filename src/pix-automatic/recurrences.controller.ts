import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../gateway/tenant-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { ApiError, ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { PageQueryDto } from '../../kernel/platform/pagination/pagination';
import { BillingPageDto } from './dto/billing.dto';
import {
  CreateRecurrenceDto,
  ListRecurrencesQueryDto,
  RecurrenceCreatedDto,
  RecurrenceDto,
  RecurrencePageDto,
  RecurrenceStatusDto,
} from './dto/recurrence.dto';
import { CancelRecurrence } from './use-cases/cancel-recurrence';
import { CreateRecurrence } from './use-cases/create-recurrence';
import { ListBillings } from './use-cases/list-billings';
import { ListRecurrences } from './use-cases/list-recurrences';
import { RefreshRecurrence } from './use-cases/refresh-recurrence';

const NOT_FOUND: ApiError = [404, 'recurrence_not_found', 'No recurrence with this id for this tenant'];
const PROVIDER_DOWN: ApiError = [
  500,
  'provider_unavailable',
  'The banking provider is unavailable (or refused: `provider_error`); retry at 1 s, 3 s, 9 s',
];

@ApiTags('pix-automatic')
@TenantRoute()
@Controller('v1/banking/pix/automatic/recurrences')
export class RecurrencesController {
  constructor(
    private readonly createRecurrence: CreateRecurrence,
    private readonly listRecurrences: ListRecurrences,
    private readonly refreshRecurrence: RefreshRecurrence,
    private readonly cancelRecurrence: CancelRecurrence,
    private readonly listBillings: ListBillings,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createRecurrence',
    summary: 'Create a recurrence; show authorizationUrl to the payer. A repeated call creates a second one.',
  })
  @ApiOkResponse({ type: RecurrenceCreatedDto })
  @ApiErrors(400, PROVIDER_DOWN)
  create(@CurrentTenant() t: TenantContext, @Body() dto: CreateRecurrenceDto): Promise<RecurrenceCreatedDto> {
    return this.createRecurrence.execute(t, dto);
  }

  @Get()
  @ApiOperation({
    operationId: 'listRecurrences',
    summary: "The tenant's recurrences, oldest first, filtered by payerTaxId, amount, firstDueDate or status",
  })
  @ApiOkResponse({ type: RecurrencePageDto })
  @ApiErrors(400)
  list(@CurrentTenant() t: TenantContext, @Query() q: ListRecurrencesQueryDto) {
    return this.listRecurrences.execute(t, q);
  }

  @Post(':recurrenceId/refresh')
  @HttpCode(200)
  @ApiOperation({ operationId: 'refreshRecurrence', summary: "Read the provider's status and overwrite the stored one" })
  @ApiOkResponse({ type: RecurrenceStatusDto })
  @ApiErrors(NOT_FOUND, PROVIDER_DOWN)
  refresh(@CurrentTenant() t: TenantContext, @Param('recurrenceId') id: string): Promise<RecurrenceStatusDto> {
    return this.refreshRecurrence.execute(t, id);
  }

  @Post(':recurrenceId/cancel')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelRecurrence',
    summary: 'Cancel (CANCELLED_RECEIVER) with its pending billings; idempotent and irreversible',
  })
  @ApiOkResponse({ type: RecurrenceDto })
  @ApiErrors(NOT_FOUND, [409, 'recurrence_not_cancelable', 'Already REJECTED, EXPIRED or CANCELLED_PAYER'], PROVIDER_DOWN)
  cancel(@CurrentTenant() t: TenantContext, @Param('recurrenceId') id: string): Promise<RecurrenceDto> {
    return this.cancelRecurrence.execute(t, id);
  }

  @Get(':recurrenceId/billings')
  @ApiOperation({ operationId: 'listRecurrenceBillings', summary: 'Billings of a recurrence, by due date' })
  @ApiOkResponse({ type: BillingPageDto })
  @ApiErrors(400, NOT_FOUND)
  billings(@CurrentTenant() t: TenantContext, @Param('recurrenceId') id: string, @Query() q: PageQueryDto) {
    return this.listBillings.execute(t, id, q);
  }
}
