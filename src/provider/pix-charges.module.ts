import { Module } from '@nestjs/common';
import { AcquirerModule } from './acquirer/acquirer.module';
import { AcquirerPixCharges } from './acquirer/acquirer-pix-charges';
import { PixApiCharges } from './pix-api/pix-api-charges';
import { PixApiCobConfig } from './pix-api/pix-api-cob.config';
import { PixApiModule } from './pix-api/pix-api.module';
import { PixApiPixCallbacksController } from './pix-api/pix-api-pix-callbacks.controller';
import { PixApiPixWebhookRegistrar } from './pix-api/pix-api-pix-webhook.registrar';
import { PixApiReceivedPix } from './pix-api/pix-api-received-pix';
import { PixApiReceivedPixWorker } from './pix-api/pix-api-received-pix.worker';
import { PixApiChargesPastTime } from './pix-api/pix-api-charges-past-time';
import { PixChargesPort } from './pix-charges.port';
import { NoPixDevolucoes, PixApiDevolucoes } from './pix-api/pix-api-devolucoes';
import { PixDevolucaoEvents, PixDevolucoes } from './pix-devolucoes.port';

/**
 * PixChargesPort bound by BANK_PROVIDER: `service` → the acquirer's Pix (AcquirerPixCharges),
 * `pix-api` → API Pix at the PSP (PixApiCharges), with the PSP's Pix callback route
 * (`POST /provider/pix-api/pix`), its registration and the worker that applies received Pix.
 * Confirmations reach links on AcquirerEvents either way. PixDevolucoes (API Pix devoluções, none
 * on `service`) and PixDevolucaoEvents (the devoluções the PSP reports, for refunds) too.
 */
@Module({
  imports: [AcquirerModule, PixApiModule],
  controllers: [PixApiPixCallbacksController],
  providers: [
    AcquirerPixCharges,
    PixApiCharges,
    PixApiReceivedPix,
    PixApiChargesPastTime,
    PixApiReceivedPixWorker,
    PixApiPixWebhookRegistrar,
    PixDevolucaoEvents,
    PixApiDevolucoes,
    NoPixDevolucoes,
    {
      provide: PixDevolucoes,
      inject: [PixApiCobConfig, PixApiDevolucoes, NoPixDevolucoes],
      useFactory: (config: PixApiCobConfig, pixApi: PixApiDevolucoes, none: NoPixDevolucoes) => (config.enabled ? pixApi : none),
    },
    {
      provide: PixChargesPort,
      inject: [PixApiCobConfig, AcquirerPixCharges, PixApiCharges],
      useFactory: (config: PixApiCobConfig, acquirer: AcquirerPixCharges, pixApi: PixApiCharges) => (config.enabled ? pixApi : acquirer),
    },
  ],
  exports: [PixChargesPort, PixDevolucoes, PixDevolucaoEvents, PixApiReceivedPix],
})
export class PixChargesModule {}
