import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { BoletoDto, CaptureDto, CardAuthorizationDto, CardRefundDto, PixChargeDto } from './acquirer-api.dto';
import { SandboxAcquirerErrors } from './sandbox-acquirer.errors';
import { AcquirerKeyGuard } from './sandbox-acquirer.guard';
import { SandboxBoletoService } from './sandbox-boleto.service';
import { SandboxCardService } from './sandbox-card.service';
import { SandboxPixService } from './sandbox-pix.service';
import { SandboxRefunds } from './sandbox-refunds.service';

/**
 * The simulated acquirer's API, as an outside acquirer would expose it. The service reaches
 * it only through the HTTP client (`AcquirerPort`); it is not part of the service's own API,
 * so it is left out of the OpenAPI document.
 */
@ApiExcludeController()
@UseGuards(AcquirerKeyGuard)
@Controller('sandbox/acquirer/v1')
export class AcquirerCardApiController {
  constructor(
    private readonly cards: SandboxCardService,
    private readonly refunds: SandboxRefunds,
  ) {}

  @Post('card-authorizations')
  @HttpCode(200)
  authorize(@Body() body: CardAuthorizationDto) {
    return this.cards.authorize(body);
  }

  @Get('card-authorizations')
  findByTransaction(@Query('transactionId') transactionId: string) {
    return this.cards.findByTransaction(String(transactionId ?? ''));
  }

  @Post('card-authorizations/:id/capture')
  @HttpCode(200)
  capture(@Param('id') id: string, @Body() body: CaptureDto) {
    return this.cards.capture(id, body);
  }

  @Post('card-authorizations/:id/void')
  @HttpCode(200)
  void(@Param('id') id: string) {
    return this.cards.void(id);
  }

  /** A refund (idempotent by `refundId`): common/protocols/acquirer-refunds.ts. */
  @Post('card-authorizations/:id/refunds')
  @HttpCode(200)
  refund(@Param('id') id: string, @Body() body: CardRefundDto) {
    return this.refunds.refundOnService(id, body.refundId, body.amountCents);
  }
}

/** Pix charges and boletos at the simulated acquirer. */
@ApiExcludeController()
@UseGuards(AcquirerKeyGuard)
@Controller('sandbox/acquirer/v1')
export class AcquirerChargesApiController {
  constructor(
    private readonly pix: SandboxPixService,
    private readonly boletos: SandboxBoletoService,
  ) {}

  @Post('pix-charges')
  @HttpCode(200)
  createPix(@Body() body: PixChargeDto) {
    return this.pix.create(body);
  }

  @Get('pix-charges/:txid')
  async getPix(@Param('txid') txid: string) {
    const c = await this.pix.find(txid);
    if (!c) throw SandboxAcquirerErrors.error('pix_charge_not_found', 'No Pix charge with this txid');
    return c;
  }

  @Post('boletos')
  @HttpCode(200)
  createBoleto(@Body() body: BoletoDto) {
    return this.boletos.create(body);
  }

  @Get('boletos/:id')
  async getBoleto(@Param('id') id: string) {
    const b = await this.boletos.find(id);
    if (!b) throw SandboxAcquirerErrors.error('boleto_not_found', 'No boleto with this id');
    return b;
  }
}
