import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { BankProvider } from './bank-provider.port';
import { HttpBankProvider } from './http-bank-provider';
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
  providers: [{ provide: BankProvider, useClass: HttpBankProvider }, ProviderEventRouter, ProviderEventsService],
  exports: [BankProvider, ProviderEventRouter, PixApiModule],
})
export class ProviderBankModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    captureRawBody(this.adapterHost.httpAdapter.getInstance(), (req) => req.url.startsWith('/provider/events'), MAX_EVENT_BYTES);
  }
}
