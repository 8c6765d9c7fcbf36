import { Injectable } from '@nestjs/common';
import type { BoletoRequest, BoletoResult } from '../../acquirer.port';
import { HttpAcquirer } from '../http-acquirer';

/**
 * Boleto bancário on Adyen (`paymentMethod.type = boletobancario`). Until it is built, boletos
 * stay on the `service` protocol.
 */
@Injectable()
export class AdyenBoletos {
  constructor(private readonly service: HttpAcquirer) {}

  create(req: BoletoRequest): Promise<BoletoResult> {
    return this.service.createBoleto(req);
  }
}
