import { Body, Controller, Get, Header, Headers, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { acceptsPayments } from '../domain/link.state-machine';
import { ApiCreatedResponse, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { brCodeQrPngDataUrl } from '../../../kernel/common/formats/brcode';
import { CheckoutAttemptGuard } from '../../gateway/checkout-attempt.guard';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { CheckoutPaymentDto, CheckoutPaymentViewDto, QuoteDto, QuoteResultDto } from '../dto/checkout.dto';
import { LinksConfig } from '../links.config';
import { i18nFor } from '../../../kernel/common/i18n';
import { CHECKOUT_JS } from './checkout.client';
import { CHECKOUT_CSS } from './checkout.css';
import { CheckoutService } from './checkout.service';
import { LinkAttemptGuard } from './link-attempt.guard';
import { checkoutPage, notFoundPage, unavailablePage } from './pages';
import { boletoPage, receiptPage } from './slip-pages';

const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

/**
 * The hosted checkout at `{PUBLIC_URL}/checkout/{slug}`: a server-rendered page with one
 * script and one stylesheet from our origin under a strict CSP, and the JSON calls it makes.
 */
@ApiTags('checkout (public)')
@Controller()
export class CheckoutController {
  private readonly csp: string;

  constructor(
    private readonly checkout: CheckoutService,
    config: LinksConfig,
  ) {
    this.csp = [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      `frame-ancestors ${config.frameAncestors}`,
    ].join('; ');
  }

  @Get('checkout/:slug')
  @ApiExcludeEndpoint()
  async page(
    @Param('slug') slug: string,
    @Query('embed') embed: string | undefined,
    @Query('parentOrigin') parentOrigin: string | undefined,
    @Query('lang') lang: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const t = i18nFor(acceptLanguage, lang);
    const model = await this.checkout.open(slug);
    const isEmbed = embed === '1';
    const parent = parentOrigin && ORIGIN.test(parentOrigin) ? parentOrigin : null;
    if (!model) return this.html(reply, 404, notFoundPage(t));
    const l = model.link;
    if (!acceptsPayments(l.status)) return this.html(reply, l.status === 'INACTIVE' ? 409 : 410, unavailablePage(t, l, isEmbed));
    return this.html(reply, 200, checkoutPage(t, model, isEmbed, parent));
  }

  @Post('checkout/:slug/quote')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'checkoutQuote',
    summary: 'Figures per method and installment count for an amount the payer typed (open-amount links)',
  })
  @ApiOkResponse({ type: QuoteResultDto })
  @ApiErrors([400, 'invalid_amount', 'Outside the link’s range, or the link has a fixed amount'], [404, 'link_not_found', 'No such link'])
  quote(@Param('slug') slug: string, @Body() dto: QuoteDto): Promise<QuoteResultDto> {
    return this.checkout.quote(slug, dto.amount);
  }

  @Post('checkout/:slug/payments')
  @UseGuards(CheckoutAttemptGuard, LinkAttemptGuard)
  @ApiOperation({
    operationId: 'checkoutPay',
    summary: 'A payer’s attempt: card (authorized at once), Pix (QR to pay) or boleto (line to pay); each attempt becomes a payment item',
  })
  @ApiCreatedResponse({ type: CheckoutPaymentViewDto, description: 'The attempt: status, paid, and the Pix QR or boleto to pay' })
  @ApiErrors(
    [
      400,
      'card_invalid',
      'Card refused by the checks (Luhn, brand, expiry, CVV); also validation_error, invalid_amount, method_not_enabled, installments_invalid, payer_invalid, fee_invalid; pix_charge_rejected (BANK_PROVIDER=pix-api): the PSP refused the Pix charge, its violations in `details`',
    ],
    [404, 'link_not_found', 'No such link'],
    [
      409,
      'link_unavailable',
      'The link is INACTIVE, EXPIRED or EXHAUSTED (`linkStatus`); link_busy: another payer holds the last use; pix_charge_refused (pix-api): the PSP refused the receiver (key, contract), in `details`',
    ],
    [
      429,
      'rate_limited',
      'Over CHECKOUT_RATE_LIMIT_PER_MINUTE attempts from this IP, or over the link’s checkoutAttemptsPerMinute from all payers; see Retry-After and RateLimit-* headers',
    ],
    [503, 'provider_unavailable', 'The acquirer (Pix) or, with BANK_PROVIDER=pix-api, the PSP (Pix, a boleto’s Pix QR) is unavailable'],
  )
  pay(@Param('slug') slug: string, @Body() dto: CheckoutPaymentDto): Promise<CheckoutPaymentViewDto> {
    return this.checkout.pay(slug, dto);
  }

  @Get('checkout/:slug/payments/:paymentId')
  @ApiOperation({ operationId: 'checkoutPaymentStatus', summary: 'Status of an attempt (the page polls it for Pix and boleto)' })
  @ApiOkResponse({ type: CheckoutPaymentViewDto, description: 'Without pix/boleto details' })
  @ApiErrors([404, 'payment_not_found', 'No such payment on this link'])
  status(@Param('slug') slug: string, @Param('paymentId') paymentId: string): Promise<CheckoutPaymentViewDto> {
    return this.checkout.status(slug, paymentId);
  }

  @Get('checkout/:slug/payments/:paymentId/boleto')
  @ApiExcludeEndpoint()
  async boleto(
    @Param('slug') slug: string,
    @Param('paymentId') paymentId: string,
    @Query('lang') lang: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const t = i18nFor(acceptLanguage, lang);
    const { link, item } = await this.checkout.payment(slug, paymentId);
    if (item.method !== 'BOLETO' || !item.instrument.digitableLine || !item.instrument.barcode)
      return this.html(reply, 404, notFoundPage(t));
    const qr = item.instrument.pixBrCode ? await brCodeQrPngDataUrl(item.instrument.pixBrCode, 180) : null;
    return this.html(reply, 200, boletoPage(t, link, item, await this.checkout.beneficiary(link), qr));
  }

  @Get('checkout/:slug/payments/:paymentId/barcode.svg')
  @ApiExcludeEndpoint()
  async barcode(@Param('slug') slug: string, @Param('paymentId') paymentId: string, @Res() reply: FastifyReply) {
    const { item } = await this.checkout.payment(slug, paymentId);
    return reply
      .header('content-type', 'image/svg+xml')
      .header('cache-control', 'private, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .send(this.checkout.barcodeSvg(item));
  }

  @Get('checkout/:slug/payments/:paymentId/receipt')
  @ApiExcludeEndpoint()
  async receipt(
    @Param('slug') slug: string,
    @Param('paymentId') paymentId: string,
    @Query('lang') lang: string | undefined,
    @Headers('accept-language') acceptLanguage: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const t = i18nFor(acceptLanguage, lang);
    const { link, item } = await this.checkout.payment(slug, paymentId);
    return this.html(reply, 200, receiptPage(t, link, item, await this.checkout.merchantName(link)));
  }

  @Get('assets/checkout/checkout.js')
  @ApiExcludeEndpoint()
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  @Header('x-content-type-options', 'nosniff')
  script(): string {
    return CHECKOUT_JS;
  }

  @Get('assets/checkout/checkout.css')
  @ApiExcludeEndpoint()
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  @Header('x-content-type-options', 'nosniff')
  style(): string {
    return CHECKOUT_CSS;
  }

  private html(reply: FastifyReply, status: number, body: string) {
    return reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', this.csp)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-store')
      .header('vary', 'accept-language')
      .send(body);
  }
}
