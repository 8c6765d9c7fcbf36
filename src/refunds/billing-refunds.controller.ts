import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../gateway/tenant-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { RequestId } from '../../kernel/platform/http/request-id.param';
import { ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { PageQueryDto } from '../../kernel/platform/pagination/pagination';
import { CreateRefundDto, RefundDto, RefundPageDto } from './dto/refund.dto';
import { DEVOLUCAO_DESCRIPTION, PIX_REFUND_ERRORS } from './pix-refunds.controller';
import { RefundsService } from './refunds.service';

/**
 * Refunds of Pix Automático billings (API Pix devoluções of the Pix that paid the billing's cobr),
 * under the recurrence routes where billings are listed. The billing is read through
 * BillingRefunds (bound by pix-automatic).
 */
@ApiTags('refunds and disputes')
@TenantRoute()
@Controller('v1/banking/pix/automatic/recurrences')
export class BillingRefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Post(':recurrenceId/billings/:billingId/refunds')
  @ApiOperation({
    operationId: 'createBillingRefund',
    summary: 'Refund a Pix Automático billing paid by its cobr (COMPLETED on BANK_PROVIDER=pix-api): an API Pix devolução',
    description: DEVOLUCAO_DESCRIPTION,
  })
  @ApiCreatedResponse({ type: RefundDto })
  @ApiErrors(
    PIX_REFUND_ERRORS[0],
    [404, 'payment_not_found', 'No such billing on this recurrence for this tenant'],
    ...PIX_REFUND_ERRORS.slice(1),
  )
  create(
    @CurrentTenant() t: TenantContext,
    @Param('recurrenceId') recurrenceId: string,
    @Param('billingId') billingId: string,
    @Body() dto: CreateRefundDto,
    @RequestId() requestId: string,
  ): Promise<RefundDto> {
    return this.refunds.create(t.tenantId, { kind: 'billing', paymentId: billingId, parentId: recurrenceId }, dto, requestId);
  }

  @Get(':recurrenceId/billings/:billingId/refunds')
  @ApiOperation({ operationId: 'listBillingRefunds', summary: "A billing's refunds, newest first" })
  @ApiOkResponse({ type: RefundPageDto })
  @ApiErrors(400)
  listOfBilling(
    @CurrentTenant() t: TenantContext,
    @Param('recurrenceId') recurrenceId: string,
    @Param('billingId') billingId: string,
    @Query() q: PageQueryDto,
  ) {
    return this.refunds.list(t.tenantId, { paymentId: billingId, parentId: recurrenceId }, q);
  }

  @Get(':recurrenceId/refunds')
  @ApiOperation({ operationId: 'listRecurrenceRefunds', summary: "The refunds of all a recurrence's billings, newest first" })
  @ApiOkResponse({ type: RefundPageDto })
  @ApiErrors(400)
  listOfRecurrence(@CurrentTenant() t: TenantContext, @Param('recurrenceId') recurrenceId: string, @Query() q: PageQueryDto) {
    return this.refunds.list(t.tenantId, { parentId: recurrenceId }, q);
  }
}
