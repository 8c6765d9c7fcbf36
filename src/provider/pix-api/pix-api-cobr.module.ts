import { Module } from '@nestjs/common';
import { ProviderBankModule } from '../bank/provider-bank.module';
import { PixChargesModule } from '../pix-charges.module';
import { PixApiCobrApplier } from './pix-api-cobr-applier';
import { PixApiCallbacksController } from './pix-api-callbacks.controller';
import { PixApiCallbacks } from './pix-api-callbacks';
import { PixApiCobrDrift, PixApiRecDrift, PixApiReconciler } from './pix-api-reconciler';
import { PixApiWebhookRegistrar } from './pix-api-webhooks.registrar';

/** API Pix billings (cobr): the adapter half, the PSP's callbacks, reconciliation, webhook registration; the Pix that paid a cobr goes to the received Pix (PixChargesModule). */
@Module({
  imports: [ProviderBankModule, PixChargesModule],
  controllers: [PixApiCallbacksController],
  providers: [PixApiCobrApplier, PixApiCallbacks, PixApiRecDrift, PixApiCobrDrift, PixApiReconciler, PixApiWebhookRegistrar],
  exports: [PixApiCallbacks, PixApiReconciler],
})
export class PixApiCobrModule {}
