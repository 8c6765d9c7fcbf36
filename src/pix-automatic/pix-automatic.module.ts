import { Global, Module } from '@nestjs/common';
import { BillingRefunds } from '../../kernel/common/contracts/refundable-payments.port';
import { Clock } from '../../kernel/platform/clock/clock';
import { ProviderBankModule } from '../provider/bank/provider-bank.module';
import { PixChargesModule } from '../provider/pix-charges.module';
import { TenantsModule } from '../tenants/tenants.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { BillingRefundsOfPixAutomatic } from './billing-refunds';
import { BillingsController } from './billings.controller';
import { BillingsRepository, SqlBillingsRepository } from './billings.repository';
import { validationToday } from './dto/date-rules';
import { BillingEngine } from './engine/billing-engine';
import { BillingSender } from './engine/billing-sender';
import { EngineScheduler } from './engine/engine-scheduler';
import { EngineRepository, SqlEngineRepository } from './engine/engine.repository';
import { OutboundEvents } from './events/outbound-events';
import { PixTransitions } from './events/pix-transitions';
import { ProviderEventHandler } from './events/provider-event-handler';
import { RecurrencesController } from './recurrences.controller';
import { RecurrencesRepository, SqlRecurrencesRepository } from './recurrences.repository';
import { TenantNames } from './tenant-names';
import { CancelBilling } from './use-cases/cancel-billing';
import { CancelRecurrence } from './use-cases/cancel-recurrence';
import { CreateAdHocBilling } from './use-cases/create-ad-hoc-billing';
import { CreateRecurrence } from './use-cases/create-recurrence';
import { ListBillings } from './use-cases/list-billings';
import { ListRecurrences } from './use-cases/list-recurrences';
import { RefreshRecurrence } from './use-cases/refresh-recurrence';

/**
 * Recurring Pix debit (Pix Automático): recurrences, billings, the billing engine, provider events;
 * binds the refunds module's BillingRefunds (global only to bind it).
 */
@Global()
@Module({
  imports: [ProviderBankModule, PixChargesModule, TenantsModule, WebhooksModule],
  controllers: [RecurrencesController, BillingsController],
  providers: [
    { provide: RecurrencesRepository, useClass: SqlRecurrencesRepository },
    { provide: BillingsRepository, useClass: SqlBillingsRepository },
    { provide: EngineRepository, useClass: SqlEngineRepository },
    TenantNames,
    OutboundEvents,
    PixTransitions,
    ProviderEventHandler,
    BillingSender,
    BillingEngine,
    EngineScheduler,
    CreateRecurrence,
    ListRecurrences,
    RefreshRecurrence,
    CancelRecurrence,
    ListBillings,
    CreateAdHocBilling,
    CancelBilling,
    { provide: BillingRefunds, useClass: BillingRefundsOfPixAutomatic },
  ],
  exports: [BillingEngine, BillingRefunds],
})
export class PixAutomaticModule {
  constructor(clock: Clock) {
    // Date validators ("not in the past") read the service clock, which the sandbox can move.
    validationToday.today = () => clock.today();
  }
}
