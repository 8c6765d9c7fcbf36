import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../gateway/tenant-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { ApiError, ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { FeeSimulationResultDto, SimulateFeesDto } from './dto/fees.dto';
import { CreatedLinkDto, CreateLinkDto, LinkDto, LinkListQueryDto, LinkPageDto, LinkStatusDto, UpdateLinkDto } from './dto/link.dto';
import { MerchantListDto } from './dto/merchant.dto';
import { LinkDetailDto } from './dto/payment.dto';
import { FeesService } from './fees/fees.service';
import { LinksService } from './links/links.service';
import { MerchantsService } from './merchants/merchants.service';

const LINK_400: ApiError = [
  400,
  'validation_error',
  'Invalid fields; also invalid_amount, invalid_link, fee_invalid and the split rules (split_owner_missing, split_duplicate_merchant, split_share_invalid, split_total_mismatch, split_merchant_unknown)',
];
const LINK_404: ApiError = [404, 'link_not_found', 'No such link for this tenant'];

@ApiTags('payment links')
@TenantRoute()
@Controller('v1/acquiring/links')
export class LinksController {
  constructor(private readonly links: LinksService) {}

  @Post()
  @ApiOperation({ operationId: 'createPaymentLink', summary: 'Create a payment link; answers slug, checkoutUrl and feeSimulation' })
  @ApiCreatedResponse({ type: CreatedLinkDto })
  @ApiErrors(LINK_400, [404, 'merchant_not_found', 'The tenant has no merchant yet'])
  create(@CurrentTenant() t: TenantContext, @Body() dto: CreateLinkDto): Promise<CreatedLinkDto> {
    return this.links.create(t.tenantId, dto);
  }

  @Get()
  @ApiOperation({ operationId: 'listPaymentLinks', summary: 'List payment links, newest first, optionally by status' })
  @ApiOkResponse({ type: LinkPageDto })
  @ApiErrors(400)
  list(@CurrentTenant() t: TenantContext, @Query() q: LinkListQueryDto) {
    return this.links.list(t.tenantId, q);
  }

  @Get(':linkId')
  @ApiOperation({ operationId: 'getPaymentLink', summary: 'Link detail: payments (null before the first attempt), metrics and events' })
  @ApiOkResponse({ type: LinkDetailDto })
  @ApiErrors(LINK_404)
  get(@CurrentTenant() t: TenantContext, @Param('linkId') id: string): Promise<LinkDetailDto> {
    return this.links.detail(t.tenantId, id);
  }

  @Patch(':linkId')
  @ApiOperation({ operationId: 'updatePaymentLink', summary: 'Change a link (same fields as create, all optional; null clears)' })
  @ApiOkResponse({ type: LinkDto })
  @ApiErrors(LINK_400, LINK_404, [409, 'invalid_transition', 'The link is EXPIRED or EXHAUSTED'])
  update(@CurrentTenant() t: TenantContext, @Param('linkId') id: string, @Body() dto: UpdateLinkDto): Promise<LinkDto> {
    return this.links.update(t.tenantId, id, dto);
  }

  @Patch(':linkId/status')
  @ApiOperation({ operationId: 'changePaymentLinkStatus', summary: 'Activate (ACTIVE) or deactivate (INACTIVE) a link' })
  @ApiOkResponse({ type: LinkDto })
  @ApiErrors(
    [400, 'link_status_not_settable', 'Only ACTIVE or INACTIVE can be asked for; EXPIRED and EXHAUSTED are set by the service'],
    LINK_404,
    [409, 'invalid_transition', 'The link is EXPIRED or EXHAUSTED'],
  )
  changeStatus(@CurrentTenant() t: TenantContext, @Param('linkId') id: string, @Body() dto: LinkStatusDto): Promise<LinkDto> {
    return this.links.changeStatus(t.tenantId, id, dto.status);
  }
}

@ApiTags('payment links')
@TenantRoute()
@Controller('v1/acquiring')
export class AcquiringController {
  constructor(
    private readonly merchants: MerchantsService,
    private readonly fees: FeesService,
  ) {}

  @Get('merchants')
  @ApiOperation({ operationId: 'listMerchants', summary: "The tenant's merchants, for splits (the owner first)" })
  @ApiOkResponse({ type: MerchantListDto })
  merchantsList(@CurrentTenant() t: TenantContext): Promise<MerchantListDto> {
    return this.merchants.list(t.tenantId);
  }

  @Post('fees/simulate')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'simulateFees',
    summary: "A merchant's fee, net and (with passFee) grossed-up amount for a method and installment count",
  })
  @ApiOkResponse({ type: FeeSimulationResultDto })
  @ApiErrors(
    [400, 'fee_invalid', 'Invalid amount or the fee exceeds it; installments_invalid for Pix or boleto above 1x'],
    [404, 'merchant_not_found', 'No such merchant'],
  )
  simulate(@CurrentTenant() t: TenantContext, @Body() dto: SimulateFeesDto): Promise<FeeSimulationResultDto> {
    return this.fees.simulate(t.tenantId, dto);
  }
}
