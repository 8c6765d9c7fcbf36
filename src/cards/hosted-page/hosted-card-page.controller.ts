import { Body, Controller, Get, Headers, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExcludeEndpoint, ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { i18nFor } from '../../../kernel/common/i18n';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { ApiHtmlPage } from '../../../kernel/platform/openapi/truth';
import { CardBody, TokenizationResultDto, TokenizeCardDto } from '../dto/tokenize.dto';
import { RequestId } from '../../../kernel/platform/http/request-id.param';
import { TokenizationResult } from '../tokenize/tokenize-card';
import { CARD_PAGE_SCRIPT, CARD_PAGE_STYLE } from './card-page.assets';
import { cardPageHeaders, renderCardPage } from './card-page.view';
import { HostedCardPageService } from './hosted-card-page.service';

const ASSET_HEADERS = {
  'cache-control': 'public, max-age=300',
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

/** The hosted card page (browser-facing; the session URL and the page key are its credentials). */
@ApiTags('hosted card page')
@Controller('hosted-card')
export class HostedCardPageController {
  constructor(private readonly page: HostedCardPageService) {}

  @Get('assets/card-page.js')
  @ApiExcludeEndpoint()
  script(@Res() reply: FastifyReply): void {
    reply.headers({ ...ASSET_HEADERS, 'content-type': 'application/javascript; charset=utf-8' }).send(CARD_PAGE_SCRIPT);
  }

  @Get('assets/card-page.css')
  @ApiExcludeEndpoint()
  style(@Res() reply: FastifyReply): void {
    reply.headers({ ...ASSET_HEADERS, 'content-type': 'text/css; charset=utf-8' }).send(CARD_PAGE_STYLE);
  }

  @Get(':sessionId')
  @ApiOperation({
    operationId: 'hostedCardPage',
    summary: 'The hosted card page (HTML) behind hostedCardUrl; single use: a second load answers 410 and token_expired',
  })
  @ApiHtmlPage()
  @ApiQuery({ name: 'key', required: true, type: String, description: 'The URL key of hostedCardUrl' })
  @ApiResponse({ status: 200, description: 'The card form (HTML); posts `ready` to its host' })
  @ApiResponse({ status: 404, description: 'Unknown session or key: the "expired" page (HTML); posts `token_expired` when framed' })
  @ApiResponse({
    status: 410,
    description: 'Session expired or already opened: the "expired" page (HTML); posts `token_expired` when framed',
  })
  @ApiQuery({ name: 'lang', required: false, type: String, description: 'pt-BR (default) or en; without it, Accept-Language decides' })
  async show(
    @Param('sessionId') sessionId: string,
    @Query('key') key: string | undefined,
    @Query('lang') lang: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @RequestId() requestId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const model = await this.page.open(sessionId, key, requestId);
    reply
      .status(model.status)
      .headers({ ...cardPageHeaders(model), vary: 'accept-language' })
      .send(renderCardPage(model, i18nFor(acceptLanguage, lang)));
  }

  @Post(':sessionId/tokenize')
  @ApiOperation({
    operationId: 'hostedCardTokenize',
    summary: "The hosted page's own same-origin tokenization call (authorised by the page key of the page that opened the session)",
  })
  @ApiHeader({ name: 'X-Card-Page-Key', required: true, description: 'Key handed to the page that opened the session' })
  @ApiBody({ type: TokenizeCardDto })
  @ApiCreatedResponse({ type: TokenizationResultDto })
  @ApiErrors(
    [400, 'validation_error', 'Invalid card data'],
    [403, 'origin_not_allowed', 'Called from another origin than the hosted page'],
    [410, 'session_expired', 'Session expired, already used, unknown, or too many failed attempts'],
  )
  async tokenize(
    @Param('sessionId') sessionId: string,
    @Headers('x-card-page-key') pageKey: string | undefined,
    @Headers('origin') origin: string | undefined,
    @Headers('sec-fetch-site') fetchSite: string | undefined,
    @RequestId() requestId: string,
    @Body() body: CardBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenizationResult> {
    reply.header('cache-control', 'no-store');
    return this.page.tokenize({ sessionId, pageKey, origin, fetchSite, requestId }, body);
  }
}
