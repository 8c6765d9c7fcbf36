import { Injectable } from '@nestjs/common';
import { AcquirerPort } from '../acquirer.port';
import { BoletoPixRequest, BoletoPixResult, PixChargeRequest, PixChargeResult, PixChargesPort } from '../pix-charges.port';

/**
 * PixChargesPort over the acquirer (BANK_PROVIDER=service), exactly as links used it before the
 * port: its static single-use BR Code, and on a boleto the QR the acquirer printed on it.
 */
@Injectable()
export class AcquirerPixCharges extends PixChargesPort {
  readonly provider = 'service' as const;

  constructor(private readonly acquirer: AcquirerPort) {
    super();
  }

  createCharge(req: PixChargeRequest): Promise<PixChargeResult> {
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { payerTaxId, ...asBefore } = req;
    return this.acquirer.createPixCharge(asBefore);
  }

  boletoPix(req: BoletoPixRequest): Promise<BoletoPixResult> {
    return Promise.resolve({ txid: null, brCode: req.boleto.pixBrCode ?? null });
  }
}
