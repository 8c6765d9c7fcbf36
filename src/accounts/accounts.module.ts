import { Module } from '@nestjs/common';
import { ProviderBankModule } from '../provider/bank/provider-bank.module';
import { LimitsController } from './limits.controller';
import { LimitsService } from './limits.service';

/** The tenant's bank accounts as the bank holds them (today: their Pix limits). */
@Module({
  imports: [ProviderBankModule],
  controllers: [LimitsController],
  providers: [LimitsService],
})
export class AccountsModule {}
