import { Body, Controller, Get, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiConsumes, ApiCreatedResponse, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CardDataRoute } from '../gateway/card-data-route';
import { CurrentTenant, TenantRoute } from '../gateway/tenant-context';
import type { TenantContext } from '../../kernel/platform/http/tenant-context';
import { ApiError, ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import {
  ChallengeResultDto,
  InitializePaymentDto,
  InitializePaymentResultDto,
  ThreeDsAuthenticateDto,
  ThreeDsResultDto,
  ThreeDsSetupDto,
  ThreeDsSetupResultDto,
} from './dto/three-ds.dto';
import { i18nFor } from '../../kernel/common/i18n';
import { CHALLENGE_RESULT_SCRIPT, CHALLENGE_RESULT_STYLE, renderChallengeResult } from './challenge-result.page';
import { ChallengeResultGuard, isAcsFormPost } from './challenge-result.guard';
import { ThreeDsAuthenticateService } from './three-ds-authenticate.service';
import { ThreeDsService } from './three-ds.service';

const TOKEN_401: ApiError = [
  401,
  'invalid_payment_token',
  'Bearer token invalid (`invalid_token`) or the initialize token unknown/expired (`invalid_payment_token`)',
];
const ACQUIRER_500: ApiError = [500, 'acquirer_unavailable', "Communication with the acquirer's 3DS server failed; retry at 1 s, 3 s, 9 s"];
const MERCHANT_403: ApiError = [
  403,
  'merchant_not_found',
  'Caller IP not allowed (`ip_not_allowed`) or merchant (documentId) not found (`merchant_not_found`)',
];

@ApiTags('3DS')
@Controller()
export class ThreeDsController {
  constructor(
    private readonly threeDs: ThreeDsService,
    private readonly auth: ThreeDsAuthenticateService,
  ) {}

  @Post('v1/acquiring/payments/initialize')
  @TenantRoute()
  @ApiOperation({
    operationId: 'initializeCardPayment',
    summary: 'Start a card payment that will be authenticated with 3DS: the token for setup and authenticate',
  })
  @ApiCreatedResponse({ type: InitializePaymentResultDto })
  @ApiErrors(400)
  initialize(@CurrentTenant() t: TenantContext, @Body() dto: InitializePaymentDto): Promise<InitializePaymentResultDto> {
    return this.threeDs.initialize(t.tenantId, dto);
  }

  @Post('v1/acquiring/payments/3ds/setup')
  @HttpCode(200)
  @CardDataRoute()
  @ApiOperation({
    operationId: 'threeDsSetup',
    summary: '3DS setup (must precede authenticate): referenceId and the device data collection URL',
  })
  @ApiOkResponse({ type: ThreeDsSetupResultDto })
  @ApiErrors(
    400,
    TOKEN_401,
    MERCHANT_403,
    [404, 'card_not_found', 'No such stored card or live token'],
    [409, 'already_authenticated', 'Already authenticated'],
    ACQUIRER_500,
  )
  setup(@CurrentTenant() t: TenantContext, @Body() dto: ThreeDsSetupDto): Promise<ThreeDsSetupResultDto> {
    return this.threeDs.setup(t.tenantId, dto);
  }

  @Post('v1/acquiring/payments/3ds/authenticate')
  @HttpCode(200)
  @CardDataRoute()
  @ApiOperation({
    operationId: 'threeDsAuthenticate',
    summary: '3DS authenticate: FRICTIONLESS (cavv, eci, dsTransactionId) or CHALLENGE (challengeUrl)',
    description:
      'Outcomes in the sandbox follow the Cardinal test cards (see the guide). Repeating a call with the same requestId replays the answer.',
  })
  @ApiOkResponse({ type: ThreeDsResultDto })
  @ApiErrors(
    [400, 'validation_error', 'Invalid or missing fields; `amount_mismatch`, `card_mismatch`, `document_mismatch`, `reference_mismatch`'],
    TOKEN_401,
    MERCHANT_403,
    [409, 'setup_required', 'Setup not done (`setup_required`), or already authenticated (`already_authenticated`, `request_id_reused`)'],
    ACQUIRER_500,
  )
  authenticate(@CurrentTenant() t: TenantContext, @Body() dto: ThreeDsAuthenticateDto): Promise<ThreeDsResultDto> {
    return this.auth.authenticate(t.tenantId, dto);
  }

  @Post('v1/acquiring/payments/3ds/challenge-result')
  @HttpCode(200)
  @UseGuards(ChallengeResultGuard)
  @ApiBearerAuth('bearer')
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiOperation({
    operationId: 'threeDsChallengeResult',
    summary:
      "After the challenge: JSON {token, referenceId} with a bearer token answers the final result; the ACS's browser form post (cres) answers the page that tells its parent 3DS_CHALLENGE_COMPLETE or 3DS_CHALLENGE_FAILED",
  })
  @ApiOkResponse({ type: ThreeDsResultDto })
  @ApiErrors(
    400,
    TOKEN_401,
    [409, 'challenge_pending', 'The cardholder has not finished the challenge (`challenge_pending`), or there was none (`not_challenged`)'],
    ACQUIRER_500,
  )
  async challengeResult(@Req() req: FastifyRequest, @Body() dto: ChallengeResultDto, @Res() reply: FastifyReply): Promise<void> {
    if (isAcsFormPost(req)) {
      const page = renderChallengeResult(await this.auth.challengeResultFromBrowser(dto.cres), i18nFor(req.headers['accept-language']));
      reply.status(page.status).headers(page.headers).send(page.html);
      return;
    }
    const tenant = (req as unknown as { tenant: TenantContext }).tenant;
    reply.status(200).send(await this.auth.challengeResult(tenant.tenantId, dto.token, dto.referenceId));
  }

  @Get('three-ds/assets/challenge-result.js')
  @ApiExcludeEndpoint()
  script(@Res() reply: FastifyReply): void {
    reply
      .headers({
        'content-type': 'application/javascript; charset=utf-8',
        'cache-control': 'public, max-age=300',
        'x-content-type-options': 'nosniff',
      })
      .send(CHALLENGE_RESULT_SCRIPT);
  }

  @Get('three-ds/assets/challenge-result.css')
  @ApiExcludeEndpoint()
  style(@Res() reply: FastifyReply): void {
    reply
      .headers({ 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' })
      .send(CHALLENGE_RESULT_STYLE);
  }
}
