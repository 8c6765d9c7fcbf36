import { Injectable } from '@nestjs/common';
import { toCents } from '../../../kernel/common/formats/money';
import { simulate } from '../domain/fees';
import { FeeSimulationResultDto, SimulateFeesDto } from '../dto/fees.dto';
import { refusingFees } from '../links.errors';
import { MerchantsService } from '../merchants/merchants.service';
import { optionToApi } from './fee-quotes';

@Injectable()
export class FeesService {
  constructor(private readonly merchants: MerchantsService) {}

  async simulate(tenantId: string, dto: SimulateFeesDto): Promise<FeeSimulationResultDto> {
    const merchant = dto.merchantId ? await this.merchants.get(tenantId, dto.merchantId) : await this.merchants.owner(tenantId);
    const installments = dto.installments ?? 1;
    const passFee = dto.passFee ?? false;
    const amountCents = toCents(dto.amount);
    const s = refusingFees('amount', () =>
      simulate({ amountCents, method: dto.paymentMethod, installments, passFee }, this.merchants.feeTable(merchant)),
    );
    return { merchantId: merchant.id, passFee, amount: dto.amount, ...optionToApi(s) };
  }
}
