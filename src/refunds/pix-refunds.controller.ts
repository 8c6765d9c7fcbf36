import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant, TenantRoute } from '../gateway/tenant-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { RequestId } from '../../kernel/platform/http/request-id.param';
import { ApiError, ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { PageQueryDto } from '../../kernel/platform/pagination/pagination';
import { MedCaseDto, MedCasePageDto } from './dto/med-case.dto';
import { CreateRefundDto, RefundDto, RefundListQueryDto, RefundPageDto } from './dto/refund.dto';
import { RefundsService } from './refunds.service';

export const PIX_REFUND_ERRORS: ApiError[] = [
  [400, 'validation_error', 'Invalid fields'],
  [
    409,
    'payment_not_refundable',
    'The payment took no money by a Pix this service received over API Pix (not paid, paid by card or by bank clearing, or BANK_PROVIDER=service)',
  ],
  [409, 'refund_conflict', 'The PSP holds another devolução under this refund id (PixDevolucaoInvalida, `id`); the refund is FAILED'],
  [
    422,
    'refund_exceeds_refundable',
    'The amount is more than can still be refunded (refunds pending or done, and MED devoluções, are taken from what the Pix paid); `details` says how much can. Also when the PSP refuses the sum (PixDevolucaoInvalida, `devolucao.valor`): the refund is then FAILED `devolucao_exceeds_pix`',
  ],
  [
    422,
    'refund_window_closed',
    'More than 90 days have passed since the Pix settled: nothing is sent (the PSP would refuse it with PixDevolucaoInvalida, `e2eid`)',
  ],
  [422, 'devolucao_rejected', 'The PSP refused the devolução for another reason (its words in the message); the refund is FAILED'],
];

export const DEVOLUCAO_DESCRIPTION =
  'An API Pix devolução of the Pix received (`PUT /pix/{e2eid}/devolucao/{id}` at the PSP, natureza ORIGINAL, `{id}` the refund id without dashes, `descricao` a fixed text by `reason`), ' +
  'in full or in parts while their sum stays within what the Pix paid (less MED devoluções). The answer is the refund, PENDING while the devolução is EM_PROCESSAMENTO: ' +
  "SUCCEEDED when the PSP reports it DEVOLVIDO, FAILED `devolucao_nao_realizada` (the PSP's motivo in failureReason) when NAO_REALIZADO, by the PSP's callback or, failing it, a lookup; " +
  'a boleto the acquirer reported PAID_PIX before the PSP reported its Pix is refunded all the same: the refund waits PENDING and its devolução is sent once the Pix is known; ' +
  'the `acquiring.refund` webhook at each status. Send an `Idempotency-Key`: a retry answers the same refund, and the PSP holds one devolução per id.';

/** Refunds of the Pix a link's payment or a billing received (API Pix devoluções), and the MED cases. */
@ApiTags('refunds and disputes')
@TenantRoute()
@Controller('v1/acquiring')
export class PixRefundsController {
  constructor(private readonly refunds: RefundsService) {}

  @Post('links/:linkId/payments/:paymentId/refunds')
  @ApiOperation({
    operationId: 'createLinkPaymentRefund',
    summary: "Refund a link's payment paid by Pix (or a boleto paid by its Pix QR, PAID_PIX): an API Pix devolução",
    description: DEVOLUCAO_DESCRIPTION,
  })
  @ApiCreatedResponse({ type: RefundDto })
  @ApiErrors(
    PIX_REFUND_ERRORS[0],
    [404, 'payment_not_found', 'No such payment on this link for this tenant'],
    ...PIX_REFUND_ERRORS.slice(1),
  )
  createForLinkPayment(
    @CurrentTenant() t: TenantContext,
    @Param('linkId') linkId: string,
    @Param('paymentId') paymentId: string,
    @Body() dto: CreateRefundDto,
    @RequestId() requestId: string,
  ): Promise<RefundDto> {
    return this.refunds.create(t.tenantId, { kind: 'link_payment', paymentId, parentId: linkId }, dto, requestId);
  }

  @Get('links/:linkId/payments/:paymentId/refunds')
  @ApiOperation({ operationId: 'listLinkPaymentRefunds', summary: "A link payment's refunds, newest first" })
  @ApiOkResponse({ type: RefundPageDto })
  @ApiErrors(400)
  listOfLinkPayment(
    @CurrentTenant() t: TenantContext,
    @Param('linkId') linkId: string,
    @Param('paymentId') paymentId: string,
    @Query() q: PageQueryDto,
  ) {
    return this.refunds.list(t.tenantId, { paymentId, parentId: linkId }, q);
  }

  @Get('links/:linkId/refunds')
  @ApiOperation({ operationId: 'listLinkRefunds', summary: "The refunds of all a link's payments, newest first" })
  @ApiOkResponse({ type: RefundPageDto })
  @ApiErrors(400)
  listOfLink(@CurrentTenant() t: TenantContext, @Param('linkId') linkId: string, @Query() q: PageQueryDto) {
    return this.refunds.list(t.tenantId, { parentId: linkId }, q);
  }

  @Get('med-cases')
  @ApiOperation({
    operationId: 'listMedCases',
    summary: "The tenant's MED cases (Pix devoluções the payer's side started), newest first (of one payment with `paymentId`)",
    description:
      'A devolução of a received Pix that the platform did not ask for (natureza MED_OPERACIONAL, MED_FRAUDE, MED_PIX_AUTOMATICO), as the PSP reports it; ' +
      'it takes its amount from what can be refunded of the payment. Each state arrives as the `acquiring.med_case` webhook. Contesting it is done with the PSP.',
  })
  @ApiOkResponse({ type: MedCasePageDto })
  @ApiErrors(400)
  listMedCases(@CurrentTenant() t: TenantContext, @Query() q: RefundListQueryDto) {
    return this.refunds.listMedCases(t.tenantId, q.paymentId ?? null, q);
  }

  @Get('med-cases/:medCaseId')
  @ApiOperation({ operationId: 'getMedCase', summary: 'A MED case' })
  @ApiOkResponse({ type: MedCaseDto })
  @ApiErrors([404, 'med_case_not_found', 'No such MED case for this tenant'])
  getMedCase(@CurrentTenant() t: TenantContext, @Param('medCaseId') id: string): Promise<MedCaseDto> {
    return this.refunds.getMedCase(t.tenantId, id);
  }
}
