import { Body, Controller, Get, Header, Headers, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { I18n, i18nFor } from '../../../kernel/common/i18n';
import { bankName, formatLine } from '../../../kernel/common/formats/boleto';
import { SANDBOX_RECEIVER } from '../../../kernel/common/protocols/sandbox-receiver';
import { formatTaxId } from '../../../kernel/common/tax-id';
import { BANK_APP_CSS, BANK_APP_JS, esc, page, SANDBOX_PAGE_CSP } from './html';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import { SandboxEnabledGuard } from '../sandbox-enabled.guard';
import { SandboxBoletoService } from './sandbox-boleto.service';
import { SandboxPixService } from './sandbox-pix.service';
import { parseBrCode } from '../../../kernel/common/formats/brcode';

export class PayBoletoDto {
  @ApiPropertyOptional({
    enum: ['BANK', 'PIX'],
    default: 'BANK',
    description: 'BANK: bank clearing (PAID); PIX: the Pix QR printed on the boleto (PAID_PIX)',
  })
  @IsOptional()
  @IsIn(['BANK', 'PIX'])
  via?: 'BANK' | 'PIX';
}

export class SandboxPaymentDto {
  @ApiProperty({ example: 'Qm3k9TzL0aB7cD1eF2gH3iJ4k' })
  id: string;
  @ApiProperty({ enum: ['PIX', 'BOLETO'], example: 'PIX' })
  kind: 'PIX' | 'BOLETO';
  @ApiProperty({ example: 'AUTHORIZED', description: 'Pix: AUTHORIZED (then SETTLED later); boleto: PAID or PAID_PIX' })
  status: string;
  @ApiProperty({ example: 150.0 })
  amount: number;
}

/**
 * What a payer does in their bank, simulated: pay a Pix QR or a boleto. Each action is a page
 * with a button and the same action as an HTTP call, for scripts and tests.
 */
@ApiTags('sandbox')
@UseGuards(SandboxEnabledGuard)
@Controller('sandbox')
export class BankAppController {
  constructor(
    private readonly pix: SandboxPixService,
    private readonly boletos: SandboxBoletoService,
  ) {}

  @Post('pix/:txid/pay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sandboxPayPix',
    summary: 'Pay a Pix QR code from the sandbox bank (a charge, or the QR printed on a boleto)',
  })
  @ApiOkResponse({ type: SandboxPaymentDto })
  @ApiErrors([404, 'pix_charge_not_found', 'No Pix charge with this txid'], [409, 'pix_not_payable', 'Already paid or expired'])
  async payPix(@Param('txid') txid: string): Promise<SandboxPaymentDto> {
    const charge = await this.pix.find(txid);
    if (charge) {
      const paid = await this.pix.pay(txid);
      return { id: paid.txid, kind: 'PIX', status: paid.status, amount: paid.amountCents / 100 };
    }
    const boleto = await this.boletos.findBy('pix_txid', txid);
    if (!boleto) throw SandboxAcquirerErrors.error('pix_charge_not_found', 'No Pix charge with this txid');
    const paid = await this.boletos.pay(boleto.boletoId, 'PIX');
    return { id: paid.boletoId, kind: 'BOLETO', status: paid.status, amount: paid.amountCents / 100 };
  }

  @Post('boletos/:id/pay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sandboxPayBoleto',
    summary: 'Pay a boleto from the sandbox bank: by bank clearing (PAID) or by its Pix QR (PAID_PIX)',
  })
  @ApiOkResponse({ type: SandboxPaymentDto })
  @ApiErrors(400, [404, 'boleto_not_found', 'No boleto with this id'], [409, 'boleto_not_payable', 'Already paid, expired or cancelled'])
  async payBoleto(@Param('id') id: string, @Body() body: PayBoletoDto): Promise<SandboxPaymentDto> {
    const paid = await this.boletos.pay(id, body?.via ?? 'BANK');
    return { id: paid.boletoId, kind: 'BOLETO', status: paid.status, amount: paid.amountCents / 100 };
  }

  @Get('bank-app')
  @ApiExcludeEndpoint()
  async bankApp(@Query('code') code: string | undefined, @Headers('accept-language') lang: string | undefined, @Res() reply: FastifyReply) {
    const t = i18nFor(lang);
    let error = '';
    const c = (code ?? '').trim();
    if (c) {
      const target = await this.resolve(c);
      if (target) return reply.redirect(target, 303);
      error = t.m.bankNoCode;
    }
    return this.html(
      reply,
      page(
        t,
        t.m.bankApp,
        `<h1>${esc(t.m.bankPayTitle)}</h1>
<form method="get" action="/sandbox/bank-app"><p>${esc(t.m.bankPaste)}</p>
<label for="code">${esc(t.m.bankCode)}</label><textarea id="code" name="code" rows="4"${error ? ' aria-invalid="true" aria-describedby="code-error"' : ''}>${esc(c)}</textarea><button type="submit">${esc(t.m.bankContinue)}</button></form>
${error ? `<p class="error" id="code-error" role="alert">${esc(error)}</p>` : ''}`,
      ),
    );
  }

  @Get('pix/:txid')
  @ApiExcludeEndpoint()
  async pixPage(@Param('txid') txid: string, @Headers('accept-language') lang: string | undefined, @Res() reply: FastifyReply) {
    const t = i18nFor(lang);
    const charge = await this.pix.find(txid);
    const boleto = charge ? null : await this.boletos.findBy('pix_txid', txid);
    if (!charge && !boleto) return this.html(reply, page(t, t.m.bankNotFound, `<h1>${esc(t.m.bankNoPix)}</h1>`), 404);
    const amount = charge?.amountCents ?? boleto!.amountCents;
    const status = charge ? charge.status : boleto!.status;
    const payable = status === 'PENDING';
    return this.html(
      reply,
      page(
        t,
        t.m.bankPixTitle,
        `<h1>${esc(t.m.bankPixTitle)}</h1>${payee(t, t.m.bankPayee, brCodeName(charge?.brCode ?? boleto!.pixBrCode), SANDBOX_RECEIVER.institution)}<dl>
<dt>${esc(t.m.amount)}</dt><dd id="amount">${esc(t.brl(amount))}</dd><dt>${esc(t.m.bankTxid)}</dt><dd>${esc(txid)}</dd>
<dt>${esc(boleto ? t.m.methodBOLETO : t.m.bankExpires)}</dt><dd>${boleto ? groups(boleto.digitableLine) : esc(t.dateTime(charge!.expiresAt))}</dd>
<dt>${esc(t.m.status)}</dt><dd class="status" id="status" data-status="${esc(status)}">${esc(t.status(boleto ? 'BOLETO' : 'PIX', status))}</dd></dl>
${payable ? `<button id="pay" data-pay="/sandbox/pix/${esc(encodeURIComponent(txid))}/pay"${done(t, boleto ? 'BOLETO' : 'PIX', boleto ? 'PAID_PIX' : 'AUTHORIZED')}>${esc(t.t('bankPayAmount', { amount: t.brl(amount) }))}</button>` : ''}<p id="result" role="status"></p>`,
      ),
    );
  }

  @Get('boletos/:id')
  @ApiExcludeEndpoint()
  async boletoPage(@Param('id') id: string, @Headers('accept-language') lang: string | undefined, @Res() reply: FastifyReply) {
    const t = i18nFor(lang);
    const b = await this.boletos.find(id);
    if (!b) return this.html(reply, page(t, t.m.bankNotFound, `<h1>${esc(t.m.bankNoBoleto)}</h1>`), 404);
    const action = `/sandbox/boletos/${esc(encodeURIComponent(id))}/pay`;
    return this.html(
      reply,
      page(
        t,
        t.m.methodBOLETO,
        `<h1>${esc(t.m.methodBOLETO)}</h1>${payee(t, t.m.boletoBeneficiary, SANDBOX_RECEIVER.name, bankName(b.barcode.slice(0, 3)))}<dl>
<dt>${esc(t.m.amount)}</dt><dd id="amount">${esc(t.brl(b.amountCents))}</dd><dt>${esc(t.m.boletoDueDate)}</dt><dd>${esc(t.date(b.dueDate))}</dd>
<dt>${esc(t.m.boletoLine)}</dt><dd>${groups(b.digitableLine)}</dd><dt>${esc(t.m.status)}</dt><dd class="status" id="status" data-status="${esc(b.status)}">${esc(t.status('BOLETO', b.status))}</dd></dl>
${b.status === 'PENDING' ? `<button id="pay-bank" data-pay="${action}" data-body='{"via":"BANK"}'${done(t, 'BOLETO', 'PAID')}>${esc(t.m.bankPayBank)}</button><button id="pay-pix" data-pay="${action}" data-body='{"via":"PIX"}'${done(t, 'BOLETO', 'PAID_PIX')}>${esc(t.m.bankPayPix)}</button>` : ''}
<p id="result" role="status"></p>`,
      ),
    );
  }

  @Get('assets/bank-app.js')
  @ApiExcludeEndpoint()
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  script(): string {
    return BANK_APP_JS;
  }

  @Get('assets/bank-app.css')
  @ApiExcludeEndpoint()
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  style(): string {
    return BANK_APP_CSS;
  }

  private async resolve(code: string): Promise<string | null> {
    const digits = code.replace(/[.\s]/g, '');
    if (/^\d{47}$/.test(digits)) {
      const b = await this.boletos.findBy('digitable_line', digits);
      return b ? `/sandbox/boletos/${encodeURIComponent(b.boletoId)}` : null;
    }
    let txid = code;
    try {
      const parsed = parseBrCode(code);
      // A dynamic code (API Pix cob/cobv) carries the location URL its charge is served at.
      txid = (parsed.url ? await this.pix.txidAt(parsed.url) : parsed.txid) ?? '';
    } catch {
      /* not a BR Code: maybe a bare txid */
    }
    if (!/^[A-Za-z0-9]{1,35}$/.test(txid)) return null;
    if ((await this.pix.find(txid)) || (await this.boletos.findBy('pix_txid', txid))) return `/sandbox/pix/${encodeURIComponent(txid)}`;
    return null;
  }

  private html(reply: FastifyReply, html: string, status = 200) {
    return reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', SANDBOX_PAGE_CSP)
      .header('cache-control', 'no-store')
      .header('vary', 'accept-language')
      .send(html);
  }
}

/** The words the page's script shows once the payment goes through, or when refused. */
function done(t: I18n, method: string, status: string): string {
  return ` data-done="${esc(t.t('bankPaid', { status: t.status(method, status) }))}" data-refused="${esc(t.m.bankRefused)}"`;
}

/** A digitable line in its printed groups, each kept whole when the line wraps. */
function groups(line: string): string {
  let f = line;
  try {
    f = formatLine(line);
  } catch {
    /* shown as stored */
  }
  return f
    .split(' ')
    .map((g) => `<span class="grp">${esc(g)}</span>`)
    .join(' ');
}

/**
 * Who the payer is paying, before any button that pays: the name, the CNPJ (the holder of the
 * sandbox's Pix key and of its boletos' account) and the institution, as a bank app shows them.
 */
function payee(t: I18n, title: string, name: string, institution: string): string {
  const doc = SANDBOX_RECEIVER.cnpj;
  return `<section class="payee" aria-labelledby="payee-title"><h2 id="payee-title">${esc(title)}</h2><dl>
<dt>${esc(t.m.bankPayeeName)}</dt><dd id="payee-name">${esc(name)}</dd>
<dt>${doc.length === 14 ? 'CNPJ' : 'CPF'}</dt><dd id="payee-taxid">${esc(formatTaxId(doc))}</dd>
<dt>${esc(t.m.bankInstitution)}</dt><dd id="payee-institution">${esc(institution)}</dd></dl></section>`;
}

/** The receiver's name a BR Code carries (merchant name, field 59): what the payer's bank reads from the code. */
function brCodeName(brCode: string): string {
  try {
    return parseBrCode(brCode).merchantName || SANDBOX_RECEIVER.name;
  } catch {
    return SANDBOX_RECEIVER.name;
  }
}
