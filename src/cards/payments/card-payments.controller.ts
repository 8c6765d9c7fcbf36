import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../../gateway/tenant-context';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { ApiError, ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { PageQueryDto } from '../../../kernel/platform/pagination/pagination';
import { CapturePaymentDto, CardPaymentDto, CardPaymentPageDto, CreateCardPaymentDto } from '../dto/card-payment.dto';
import { RequestId } from '../../../kernel/platform/http/request-id.param';
import { CardPaymentsService } from './card-payments.service';

const NOT_FOUND: ApiError = [404, 'payment_not_found', 'No such card payment for this tenant'];
const ACQUIRER: ApiError = [
  500,
  'acquirer_unavailable',
  'The acquirer could not be reached (`acquirer_unavailable`) or refused (`acquirer_rejected`); the payment is unchanged',
];

@ApiTags('card payments')
@TenantRoute()
@Controller('v1/acquiring/payments')
export class CardPaymentsController {
  constructor(private readonly payments: CardPaymentsService) {}

  @Post()
  @ApiOperation({
    operationId: 'createCardPayment',
    summary: 'Charge a stored card or a single-use token (sale or pre-authorization), optionally with a 3DS result',
    description:
      'The answer says the request was accepted, with the payment status (ACCEPTED, PREAUTH, AUTH_REJECTED, CHALLENGE_REJECTED, SETUP_REJECTED or FAILED). ' +
      'The result also reaches you by the acquiring webhook `acquiring.financial_transaction`.',
  })
  @ApiCreatedResponse({ type: CardPaymentDto })
  @ApiErrors(
    [400, 'validation_error', 'Invalid fields; also `token_already_used`, `token_expired`, `three_ds_mismatch`, `three_ds_incomplete`'],
    [
      404,
      'stored_card_not_found',
      'Unknown slugStoredCard (`stored_card_not_found`), slugToken (`card_token_not_found`) or dsTransactionId (`three_ds_not_found`)',
    ],
    [409, 'three_ds_already_used', 'The 3DS authentication already backs another payment'],
  )
  create(@CurrentTenant() t: TenantContext, @Body() dto: CreateCardPaymentDto, @RequestId() requestId: string): Promise<CardPaymentDto> {
    return this.payments.create(t.tenantId, dto, requestId);
  }

  @Get()
  @ApiOperation({ operationId: 'listCardPayments', summary: "List the tenant's card payments, newest first" })
  @ApiOkResponse({ type: CardPaymentPageDto })
  @ApiErrors(400)
  list(@CurrentTenant() t: TenantContext, @Query() q: PageQueryDto) {
    return this.payments.list(t.tenantId, q);
  }

  @Get(':paymentId')
  @ApiOperation({ operationId: 'getCardPayment', summary: 'A card payment' })
  @ApiOkResponse({ type: CardPaymentDto })
  @ApiErrors(NOT_FOUND)
  get(@CurrentTenant() t: TenantContext, @Param('paymentId') paymentId: string): Promise<CardPaymentDto> {
    return this.payments.get(t.tenantId, paymentId);
  }

  @Post(':paymentId/capture')
  @HttpCode(200)
  @ApiOperation({ operationId: 'captureCardPayment', summary: 'Capture a pre-authorization (PREAUTH → CAPTURED), fully or partly' })
  @ApiOkResponse({ type: CardPaymentDto })
  @ApiErrors(400, NOT_FOUND, [409, 'invalid_payment_status', 'The payment is not PREAUTH'], ACQUIRER)
  capture(
    @CurrentTenant() t: TenantContext,
    @Param('paymentId') paymentId: string,
    @Body() dto: CapturePaymentDto,
  ): Promise<CardPaymentDto> {
    return this.payments.capture(t.tenantId, paymentId, dto?.amount);
  }

  @Post(':paymentId/void')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'voidCardPayment',
    summary: 'Void a PREAUTH, ACCEPTED or CAPTURED payment on the day it was authorized (day 0)',
  })
  @ApiOkResponse({ type: CardPaymentDto })
  @ApiErrors(
    NOT_FOUND,
    [409, 'void_window_closed', 'Not voidable: past day 0 (`void_window_closed`) or wrong status (`invalid_payment_status`)'],
    ACQUIRER,
  )
  void(@CurrentTenant() t: TenantContext, @Param('paymentId') paymentId: string): Promise<CardPaymentDto> {
    return this.payments.void(t.tenantId, paymentId);
  }
}
