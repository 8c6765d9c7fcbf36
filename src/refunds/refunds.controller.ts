import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../gateway/tenant-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { RequestId } from '../../kernel/platform/http/request-id.param';
import { ApiError, ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { PageQueryDto } from '../../kernel/platform/pagination/pagination';
import {
  ConfirmPayoutDto,
  CreateRefundDto,
  DisputeDto,
  DisputePageDto,
  RefundDto,
  RefundListQueryDto,
  RefundPageDto,
} from './dto/refund.dto';
import { RefundsService } from './refunds.service';

const PAYMENT_NOT_FOUND: ApiError = [404, 'payment_not_found', 'No such card payment for this tenant'];

@ApiTags('refunds and disputes')
@TenantRoute()
@Controller('v1/acquiring')
export class RefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Post('payments/:paymentId/refunds')
  @ApiOperation({
    operationId: 'createRefund',
    summary: 'Refund a card payment, in full or in part; a pre-authorization never captured is released (a void)',
    description:
      'Any number of refunds while their sum stays within what was captured (less what a chargeback holds). The answer is the refund, usually PENDING: ' +
      'its outcome (SUCCEEDED or FAILED, later perhaps REVERSED) comes by the `acquiring.refund` webhook and on `GET /v1/acquiring/refunds/{refundId}`. ' +
      "Send an `Idempotency-Key`: a retry with the same key answers the same refund, and the refund id is also the acquirer's idempotency key, so money goes back once.",
  })
  @ApiCreatedResponse({ type: RefundDto })
  @ApiErrors(
    [400, 'validation_error', 'Invalid fields (a partial amount for a pre-authorization: `partial_void`)'],
    PAYMENT_NOT_FOUND,
    [409, 'payment_not_refundable', 'The payment took no money (refused, failed, voided or still processing)'],
    [422, 'refund_exceeds_refundable', 'The amount is more than can still be refunded; `details` says how much can'],
    [
      500,
      'acquirer_unavailable',
      'Releasing a pre-authorization: the acquirer could not be reached (`acquirer_unavailable`) or refused (`acquirer_rejected`); nothing changed',
    ],
  )
  create(
    @CurrentTenant() t: TenantContext,
    @Param('paymentId') paymentId: string,
    @Body() dto: CreateRefundDto,
    @RequestId() requestId: string,
  ): Promise<RefundDto> {
    return this.refunds.create(t.tenantId, { kind: 'card_payment', paymentId }, dto, requestId);
  }

  @Get('payments/:paymentId/refunds')
  @ApiOperation({ operationId: 'listPaymentRefunds', summary: "A card payment's refunds, newest first" })
  @ApiOkResponse({ type: RefundPageDto })
  @ApiErrors(400)
  listOfPayment(@CurrentTenant() t: TenantContext, @Param('paymentId') paymentId: string, @Query() q: PageQueryDto) {
    return this.refunds.list(t.tenantId, { paymentId }, q);
  }

  @Get('refunds')
  @ApiOperation({
    operationId: 'listRefunds',
    summary: "The tenant's refunds of every kind (card payments, link payments, billings), newest first (of one payment with `paymentId`)",
  })
  @ApiOkResponse({ type: RefundPageDto })
  @ApiErrors(400)
  list(@CurrentTenant() t: TenantContext, @Query() q: RefundListQueryDto) {
    return this.refunds.list(t.tenantId, { paymentId: q.paymentId ?? null }, q);
  }

  @Get('refunds/:refundId')
  @ApiOperation({ operationId: 'getRefund', summary: 'A refund' })
  @ApiOkResponse({ type: RefundDto })
  @ApiErrors([404, 'refund_not_found', 'No such refund for this tenant'])
  get(@CurrentTenant() t: TenantContext, @Param('refundId') refundId: string): Promise<RefundDto> {
    return this.refunds.get(t.tenantId, refundId);
  }

  @Post('refunds/:refundId/payout-confirmation')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'confirmRefundPayout',
    summary: "Confirm a payout refund (a boleto paid by bank clearing): you paid the payer out; give your Pix's end-to-end id",
    description:
      'PENDING → SUCCEEDED, with the `acquiring.refund` webhook. API Pix has no standard operation that sends a Pix, so the platform records your payout rather than making it.',
  })
  @ApiOkResponse({ type: RefundDto })
  @ApiErrors(
    400,
    [404, 'refund_not_found', 'No such refund for this tenant'],
    [409, 'invalid_refund_status', 'Not a payout refund, or not PENDING any more'],
  )
  confirmPayout(@CurrentTenant() t: TenantContext, @Param('refundId') refundId: string, @Body() dto: ConfirmPayoutDto): Promise<RefundDto> {
    return this.refunds.confirmPayout(t.tenantId, refundId, dto.endToEndId);
  }

  @Post('refunds/:refundId/payout-cancellation')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'cancelRefundPayout',
    summary: 'Give up a payout refund you will not pay: FAILED (`payout_cancelled`), its amount refundable again',
  })
  @ApiOkResponse({ type: RefundDto })
  @ApiErrors(
    [404, 'refund_not_found', 'No such refund for this tenant'],
    [409, 'invalid_refund_status', 'Not a payout refund, or not PENDING any more'],
  )
  cancelPayout(@CurrentTenant() t: TenantContext, @Param('refundId') refundId: string): Promise<RefundDto> {
    return this.refunds.cancelPayout(t.tenantId, refundId);
  }

  @Get('disputes')
  @ApiOperation({
    operationId: 'listDisputes',
    summary: "The tenant's card disputes (chargebacks), newest first (of one payment with `paymentId`)",
    description:
      "Disputes are defended in the acquirer's back office (Adyen's Customer Area); here they are read, and arrive as the `acquiring.dispute` webhook.",
  })
  @ApiOkResponse({ type: DisputePageDto })
  @ApiErrors(400)
  listDisputes(@CurrentTenant() t: TenantContext, @Query() q: RefundListQueryDto) {
    return this.refunds.listDisputes(t.tenantId, q.paymentId ?? null, q);
  }

  @Get('disputes/:disputeId')
  @ApiOperation({ operationId: 'getDispute', summary: 'A card dispute with every stage the acquirer reported' })
  @ApiOkResponse({ type: DisputeDto })
  @ApiErrors([404, 'dispute_not_found', 'No such dispute for this tenant'])
  getDispute(@CurrentTenant() t: TenantContext, @Param('disputeId') disputeId: string): Promise<DisputeDto> {
    return this.refunds.getDispute(t.tenantId, disputeId);
  }
}
