import { Body, Controller, Delete, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../gateway/tenant-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { BillingDto, CreateAdHocBillingDto } from './dto/billing.dto';
import { CancelBilling } from './use-cases/cancel-billing';
import { CreateAdHocBilling } from './use-cases/create-ad-hoc-billing';

@ApiTags('pix-automatic')
@TenantRoute()
@Controller('v1/banking/pix/automatic/billings')
export class BillingsController {
  constructor(
    private readonly createAdHoc: CreateAdHocBilling,
    private readonly cancelBilling: CancelBilling,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createAdHocBilling',
    summary: 'Ad hoc billing (extra charge, adjustment, manual retry) on an ACCEPTED or ACTIVE recurrence',
  })
  @ApiCreatedResponse({ type: BillingDto })
  @ApiErrors(
    [400, 'validation_error', 'Invalid fields, or `due_date_in_past` when the adjusted due date is before today'],
    [404, 'recurrence_not_found', 'No recurrence with this id for this tenant'],
    [500, 'recurrence_not_authorized', 'The recurrence is not ACCEPTED or ACTIVE (the spec answers 500)'],
  )
  create(@CurrentTenant() t: TenantContext, @Body() dto: CreateAdHocBillingDto): Promise<BillingDto> {
    return this.createAdHoc.execute(t, dto);
  }

  @Delete(':billingId')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelBilling',
    summary: 'Cancel a billing (CANCELLED_RECEIVER) while it is PENDING_SEND, SENT, ACTIVE or SEND_FAILED',
  })
  @ApiOkResponse({ type: BillingDto })
  @ApiErrors(
    [404, 'billing_not_found', 'No billing with this id for this tenant'],
    [409, 'billing_not_cancelable', 'COMPLETED, REJECTED, EXPIRED or cancelled by the payer'],
    [500, 'provider_unavailable', 'The banking provider is unavailable; retry at 1 s, 3 s, 9 s'],
  )
  cancel(@CurrentTenant() t: TenantContext, @Param('billingId') id: string): Promise<BillingDto> {
    return this.cancelBilling.execute(t, id);
  }
}
