import { Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { BankProvider } from './bank-provider.port';
import { HttpBankProvider } from './http-bank-provider';
import { ProviderEventRouter } from './provider-event-router';
import { ProviderEventsController } from './provider-events.controller';
import { ProviderEventsService } from './provider-events.service';
import { captureRawBody } from '../../../kernel/platform/http/raw-body';
import { PixApiModule } from '../pix-api/pix-api.module';
import { PixApiConfig } from '../pix-api/pix-api.config';
import { PixApiBankProvider } from '../pix-api/pix-api-bank-provider';
import { PIX_API_CALLER, PixApiBillings } from '../pix-api/pix-api-billings';
import { PixApiClient } from '../pix-api/pix-api-client';
import { PixApiRecurrences } from '../pix-api/pix-api-recurrences';

const MAX_EVENT_BYTES = 64 * 1024;

/** The banking provider: outbound client (port `BankProvider`) and the inbound event endpoint. */
@Module({
  imports: [PixApiModule],
  controllers: [ProviderEventsController],
  providers: [
    HttpBankProvider,
    PixApiRecurrences,
    { provide: PIX_API_CALLER, useExisting: PixApiClient },
    PixApiBillings,
    PixApiBankProvider,
    {
      // BANK_PROVIDER: `service` (this seed's protocol, default) or `pix-api` (the Central Bank's standard)
      provide: BankProvider,
      useFactory: (c: PixApiConfig, service: HttpBankProvider, pixApi: PixApiBankProvider) => (c.enabled ? pixApi : service),
      inject: [PixApiConfig, HttpBankProvider, PixApiBankProvider],
    },
    ProviderEventRouter,
    ProviderEventsService,
  ],
  exports: [BankProvider, ProviderEventRouter, PixApiModule, PixApiRecurrences, PixApiBillings, PIX_API_CALLER],
})
export class ProviderBankModule {
  // in the constructor: the hook must be in place before Nest registers the routes
  constructor(adapterHost: HttpAdapterHost) {
    captureRawBody(adapterHost.httpAdapter.getInstance(), { method: 'POST', url: '/provider/events' }, MAX_EVENT_BYTES);
  }
}
