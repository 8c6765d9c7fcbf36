import { Injectable } from '@nestjs/common';
import { toCents } from '../../common/formats/money';
import { FeeError, simulate } from '../domain/fees';
import { FeeSimulationResultDto, SimulateFeesDto } from '../dto/fees.dto';
import { LinkErrors } from '../links.errors';
import { MerchantsService } from '../merchants/merchants.service';
import { optionToApi } from './fee-quotes';

@Injectable()
export class FeesService {
  constructor(private readonly merchants: MerchantsService) {}

  async simulate(tenantId: string, dto: SimulateFeesDto): Promise<FeeSimulationResultDto> {
    const merchant = dto.merchantId ? await this.merchants.get(tenantId, dto.merchantId) : await this.merchants.owner(tenantId);
    const installments = dto.installments ?? 1;
    const passFee = dto.passFee ?? false;
    try {
      const s = simulate(
        { amountCents: toCents(dto.amount), method: dto.paymentMethod, installments, passFee },
        this.merchants.feeTable(merchant),
      );
      return { merchantId: merchant.id, passFee, amount: dto.amount, ...optionToApi(s) };
    } catch (e) {
      if (e instanceof FeeError) {
        const code = e.code === 'fee_installments_invalid' ? 'installments_invalid' : 'fee_invalid';
        const field = e.code === 'fee_installments_invalid' ? 'installments' : 'amount';
        throw LinkErrors.error(code, e.message, { details: [{ field, message: e.message, code: e.code }] });
      }
      throw e;
    }
  }
}
