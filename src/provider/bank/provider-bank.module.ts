import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { BankProvider } from './bank-provider.port';
import { HttpBankProvider } from './http-bank-provider';
import { PIX_API_CALLER, PixApiBillings } from '../pix-api/pix-api-billings';
import { PixApiCobrConfig } from '../pix-api/pix-api-cobr.config';
import { PixApiClient } from '../pix-api/pix-api-client';
import { InterimPixApiBankProvider } from '../pix-api/pix-api-interim-provider';
import { ProviderEventRouter } from './provider-event-router';
import { ProviderEventsController } from './provider-events.controller';
import { ProviderEventsService } from './provider-events.service';
import { captureRawBody } from '../../platform/http/raw-body';
import { PixApiModule } from '../pix-api/pix-api.module';

const MAX_EVENT_BYTES = 64 * 1024;

/** The banking provider: outbound client (port `BankProvider`) and the inbound event endpoint. */
@Module({
  imports: [PixApiModule],
  controllers: [ProviderEventsController],
  providers: [
    HttpBankProvider,
    // TEMPORARY wiring until psp-core's PixApiBankProvider: the pix-api billing half over PixApiClient.
    { provide: PIX_API_CALLER, useExisting: PixApiClient },
    PixApiBillings,
    {
      provide: BankProvider,
      useFactory: (http: HttpBankProvider, billings: PixApiBillings, c: PixApiCobrConfig) => (c.enabled ? new InterimPixApiBankProvider(http, billings) : http),
      inject: [HttpBankProvider, PixApiBillings, PixApiCobrConfig],
    },
    ProviderEventRouter,
    ProviderEventsService,
  ],
  exports: [BankProvider, ProviderEventRouter, PixApiModule, PixApiBillings, PIX_API_CALLER],
})
export class ProviderBankModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    captureRawBody(this.adapterHost.httpAdapter.getInstance(), (req) => req.url.startsWith('/provider/events'), MAX_EVENT_BYTES);
  }
}
