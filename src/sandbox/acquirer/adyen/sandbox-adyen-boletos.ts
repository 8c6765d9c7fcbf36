import { Injectable } from '@nestjs/common';
import type { AdyenPaymentResponse } from '../../../common/protocols/adyen';
import { AdyenAnswerError } from './sandbox-adyen-checkout';

/**
 * `POST /payments` with `paymentMethod.type = boletobancario` at the sandbox's Adyen face. Not
 * built yet: answered as Adyen answers a method the merchant account does not have.
 */
@Injectable()
export class SandboxAdyenBoletos {
  pay(_body: Record<string, any>, _idempotencyKey: string | undefined, _merchantAccount: string): Promise<AdyenPaymentResponse> {
    return Promise.reject(
      new AdyenAnswerError({
        status: 422,
        errorCode: '905_1',
        message: 'Could not find an acquirer account for the provided txvariant (boletobancario)',
        errorType: 'configuration',
      }),
    );
  }
}
