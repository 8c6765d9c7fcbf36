import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../../platform/openapi/error-envelope.dto';
import { BANK_APP_CSS, BANK_APP_JS, brl, esc, page, SANDBOX_PAGE_CSP } from './html';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import { SandboxEnabledGuard } from './sandbox-acquirer.guard';
import { SandboxBoletoService } from './sandbox-boleto.service';
import { SandboxPixService } from './sandbox-pix.service';
import { parseBrCode } from '../../common/formats/brcode';

export class PayBoletoDto {
  @ApiPropertyOptional({ enum: ['BANK', 'PIX'], default: 'BANK', description: 'BANK: bank clearing (PAID); PIX: the Pix QR printed on the boleto (PAID_PIX)' })
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
  @ApiOperation({ operationId: 'sandboxPayPix', summary: 'Pay a Pix QR code from the sandbox bank (a charge, or the QR printed on a boleto)' })
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
  @ApiOperation({ operationId: 'sandboxPayBoleto', summary: 'Pay a boleto from the sandbox bank: by bank clearing (PAID) or by its Pix QR (PAID_PIX)' })
  @ApiOkResponse({ type: SandboxPaymentDto })
  @ApiErrors(400, [404, 'boleto_not_found', 'No boleto with this id'], [409, 'boleto_not_payable', 'Already paid, expired or cancelled'])
  async payBoleto(@Param('id') id: string, @Body() body: PayBoletoDto): Promise<SandboxPaymentDto> {
    const paid = await this.boletos.pay(id, body?.via ?? 'BANK');
    return { id: paid.boletoId, kind: 'BOLETO', status: paid.status, amount: paid.amountCents / 100 };
  }

  @Get('bank-app')
  @ApiExcludeEndpoint()
  async bankApp(@Query('code') code: string | undefined, @Res() reply: FastifyReply) {
    let error = '';
    const c = (code ?? '').trim();
    if (c) {
      const target = await this.resolve(c);
      if (target) return reply.redirect(target, 303);
      error = 'No Pix charge or boleto found for this code.';
    }
    return this.html(reply, page('Sandbox bank app', `<h1>Pay a Pix or a boleto</h1>
<form method="get" action="/sandbox/bank-app"><p>Paste a Pix "copia e cola" code or a boleto's digitable line:</p>
<textarea name="code" rows="4">${esc(c)}</textarea><button type="submit">Continue</button></form>
${error ? `<p class="error">${esc(error)}</p>` : ''}`));
  }

  @Get('pix/:txid')
  @ApiExcludeEndpoint()
  async pixPage(@Param('txid') txid: string, @Res() reply: FastifyReply) {
    const charge = await this.pix.find(txid);
    const boleto = charge ? null : await this.boletos.findBy('pix_txid', txid);
    if (!charge && !boleto) return this.html(reply, page('Not found', '<h1>No such Pix QR code</h1>'), 404);
    const amount = charge?.amountCents ?? boleto!.amountCents;
    const status = charge ? charge.status : boleto!.status;
    const payable = status === 'PENDING';
    return this.html(reply, page('Pay with Pix', `<h1>Pix payment</h1><dl>
<dt>Amount</dt><dd id="amount">${esc(brl(amount))}</dd><dt>txid</dt><dd>${esc(txid)}</dd>
<dt>${boleto ? 'Boleto' : 'Expires'}</dt><dd>${esc(boleto ? boleto.digitableLine : charge!.expiresAt)}</dd>
<dt>Status</dt><dd class="status" id="status">${esc(status)}</dd></dl>
${payable ? `<button id="pay" data-pay="/sandbox/pix/${esc(encodeURIComponent(txid))}/pay">Pay ${esc(brl(amount))}</button>` : ''}<p id="result"></p>`));
  }

  @Get('boletos/:id')
  @ApiExcludeEndpoint()
  async boletoPage(@Param('id') id: string, @Res() reply: FastifyReply) {
    const b = await this.boletos.find(id);
    if (!b) return this.html(reply, page('Not found', '<h1>No such boleto</h1>'), 404);
    const action = `/sandbox/boletos/${esc(encodeURIComponent(id))}/pay`;
    return this.html(reply, page('Pay a boleto', `<h1>Boleto</h1><dl>
<dt>Amount</dt><dd>${esc(brl(b.amountCents))}</dd><dt>Due date</dt><dd>${esc(b.dueDate)}</dd>
<dt>Line</dt><dd>${esc(b.digitableLine)}</dd><dt>Status</dt><dd class="status" id="status">${esc(b.status)}</dd></dl>
${b.status === 'PENDING' ? `<button id="pay-bank" data-pay="${action}" data-body='{"via":"BANK"}'>Pay by bank</button><button id="pay-pix" data-pay="${action}" data-body='{"via":"PIX"}'>Pay with the Pix QR</button>` : ''}
<p id="result"></p>`));
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
      txid = parseBrCode(code).txid ?? '';
    } catch {
      /* not a BR Code: maybe a bare txid */
    }
    if (!/^[A-Za-z0-9]{1,25}$/.test(txid)) return null;
    if ((await this.pix.find(txid)) || (await this.boletos.findBy('pix_txid', txid))) return `/sandbox/pix/${encodeURIComponent(txid)}`;
    return null;
  }

  private html(reply: FastifyReply, html: string, status = 200) {
    return reply.status(status).header('content-type', 'text/html; charset=utf-8').header('content-security-policy', SANDBOX_PAGE_CSP).header('cache-control', 'no-store').send(html);
  }
}
