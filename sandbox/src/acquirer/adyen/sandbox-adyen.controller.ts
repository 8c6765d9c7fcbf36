import { Body, Controller, Headers, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { AdyenPaymentRequest } from '../../../../kernel/common/protocols/adyen';
import { SandboxEnabledGuard } from '../../sandbox-enabled.guard';
import { AdyenAnswerError, SandboxAdyenCheckout } from './sandbox-adyen-checkout';
import { SandboxAdyenConfig } from './sandbox-adyen.config';
import { SandboxAdyenBoletos } from './sandbox-adyen-boletos';
import { SandboxAdyenThreeDs } from './sandbox-adyen-three-ds';
import { SandboxAdyenRefunds } from './sandbox-adyen-refunds';

/**
 * The sandbox acquirer's Adyen face: Checkout v72's `/payments`, `/captures`, `/cancels`, `/refunds`,
 * `/reversals` and the standalone `/cancels`,
 * `X-API-Key` required, errors as Adyen's `ServiceError`. Not part of the service's own API, so
 * left out of its OpenAPI document (Adyen's file is its contract; the tests validate against it).
 */
@ApiExcludeController()
@UseGuards(SandboxEnabledGuard)
@Controller('sandbox/adyen/checkout/v72')
export class SandboxAdyenController {
  private readonly key: Buffer;

  constructor(
    private readonly checkout: SandboxAdyenCheckout,
    private readonly boletos: SandboxAdyenBoletos,
    private readonly threeDs: SandboxAdyenThreeDs,
    private readonly refunds: SandboxAdyenRefunds,
    private readonly config: SandboxAdyenConfig,
  ) {
    this.key = createHash('sha256').update(config.apiKey).digest();
  }

  @Post('payments')
  @HttpCode(200)
  payments(
    @Headers('x-api-key') apiKey: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Body() body: AdyenPaymentRequest,
    @Res() reply: FastifyReply,
  ) {
    const b = body as Record<string, any> | undefined;
    return this.answer(reply, apiKey, idempotencyKey, () =>
      b?.paymentMethod?.type === 'boletobancario'
        ? this.boletos.pay(b, idempotencyKey, this.config.merchantAccount)
        : b?.authenticationData?.authenticationOnly === true
          ? this.threeDs.start(b, this.config.merchantAccount)
          : this.checkout.pay(body, idempotencyKey, this.config.merchantAccount),
    );
  }

  @Post('payments/details')
  @HttpCode(200)
  details(
    @Headers('x-api-key') apiKey: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Body() body: Record<string, any>,
    @Res() reply: FastifyReply,
  ) {
    return this.answer(reply, apiKey, idempotencyKey, () => this.threeDs.details(body ?? {}));
  }

  @Post('payments/:pspReference/captures')
  @HttpCode(201)
  captures(
    @Headers('x-api-key') apiKey: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Param('pspReference') psp: string,
    @Body() body: Parameters<SandboxAdyenCheckout['capture']>[1],
    @Res() reply: FastifyReply,
  ) {
    return this.answer(reply, apiKey, idempotencyKey, () => this.checkout.capture(psp, body ?? {}, this.config.merchantAccount), 201);
  }

  @Post('payments/:pspReference/cancels')
  @HttpCode(201)
  cancels(
    @Headers('x-api-key') apiKey: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Param('pspReference') psp: string,
    @Body() body: Parameters<SandboxAdyenCheckout['cancel']>[1],
    @Res() reply: FastifyReply,
  ) {
    return this.answer(reply, apiKey, idempotencyKey, () => this.checkout.cancel(psp, body ?? {}, this.config.merchantAccount), 201);
  }

  @Post('payments/:pspReference/refunds')
  @HttpCode(201)
  refundPayment(
    @Headers('x-api-key') apiKey: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Param('pspReference') psp: string,
    @Body() body: Record<string, any>,
    @Res() reply: FastifyReply,
  ) {
    return this.answer(
      reply,
      apiKey,
      idempotencyKey,
      () => this.refunds.refund(psp, body, idempotencyKey, this.config.merchantAccount),
      201,
    );
  }

  @Post('payments/:pspReference/reversals')
  @HttpCode(201)
  reversePayment(
    @Headers('x-api-key') apiKey: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Param('pspReference') psp: string,
    @Body() body: Record<string, any>,
    @Res() reply: FastifyReply,
  ) {
    return this.answer(
      reply,
      apiKey,
      idempotencyKey,
      () => this.refunds.reversal(psp, body, idempotencyKey, this.config.merchantAccount),
      201,
    );
  }

  /** The standalone cancel, by the payment's merchant reference (`paymentReference`): TECHNICAL_CANCEL. */
  @Post('cancels')
  @HttpCode(201)
  technicalCancel(
    @Headers('x-api-key') apiKey: string | undefined,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Body() body: Record<string, any>,
    @Res() reply: FastifyReply,
  ) {
    return this.answer(
      reply,
      apiKey,
      idempotencyKey,
      () => this.refunds.technicalCancel(body, idempotencyKey, this.config.merchantAccount),
      201,
    );
  }

  private async answer(
    reply: FastifyReply,
    apiKey: string | undefined,
    idempotencyKey: string | undefined,
    run: () => Promise<object>,
    ok = 200,
  ) {
    const given = createHash('sha256')
      .update(apiKey ?? '')
      .digest();
    if (!apiKey || !timingSafeEqual(given, this.key)) {
      return reply
        .status(401)
        .send({ status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' });
    }
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 64)) {
      return reply
        .status(422)
        .send({ status: 422, errorCode: '702', message: 'Idempotency-Key must be 1 to 64 characters', errorType: 'validation' });
    }
    try {
      const body = await run();
      if (idempotencyKey) reply.header('idempotency-key', idempotencyKey);
      return reply.status(ok).send(body);
    } catch (e) {
      if (e instanceof AdyenAnswerError) return reply.status(e.body.status).send(e.body);
      throw e;
    }
  }
}
