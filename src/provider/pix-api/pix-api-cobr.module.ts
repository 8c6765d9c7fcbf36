import { Module } from '@nestjs/common';
import { BreakerRegistry } from '../../platform/resilience/breaker-registry';
import { ProviderBankModule } from '../bank/provider-bank.module';
import { PIX_API_CALLER, PixApiBillings } from './pix-api-billings';
import { PixApiCallbacksController } from './pix-api-callbacks.controller';
import { PixApiCallbackQueue } from './pix-api-callbacks.queue';
import { PixApiCallbackWorker } from './pix-api-callbacks.worker';
import { PixApiCobrConfig } from './pix-api-cobr.config';
import { InterimPspCaller } from './pix-api-interim-caller';
import { PixApiReconciler } from './pix-api-reconciler';
import { PixApiWebhookRegistrar } from './pix-api-webhooks.registrar';

/** API Pix billings (cobr): the adapter half, the PSP's callbacks, reconciliation, webhook registration. */
@Module({
  imports: [ProviderBankModule],
  controllers: [PixApiCallbacksController],
  providers: [
    { provide: PIX_API_CALLER, useFactory: (b: BreakerRegistry, c: PixApiCobrConfig) => new InterimPspCaller(() => c.pspUrl, b), inject: [BreakerRegistry, PixApiCobrConfig] },
    PixApiBillings,
    PixApiCallbackQueue,
    PixApiCallbackWorker,
    PixApiReconciler,
    PixApiWebhookRegistrar,
  ],
  exports: [PixApiBillings, PixApiCallbackWorker, PixApiReconciler, PIX_API_CALLER],
})
export class PixApiCobrModule {}
