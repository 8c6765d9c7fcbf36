import { Module, OnModuleInit } from '@nestjs/common';
import { SandboxBankModule } from '../bank/sandbox-bank.module';
import { SandboxPspCallbacks } from './psp-cobr.events';
import { SandboxPspCobrHandlers } from './psp-cobr.handlers';
import { SandboxCobrSettlement } from './psp-cobr.settlement';
import { SandboxCobrStore } from './psp-cobr.store';
import { SandboxPspServer } from './psp-server';
import { SandboxPspModule } from './sandbox-psp.module';
import { SandboxPspWebhookHandlers } from './psp-webhooks.handlers';

/** The sandbox PSP's cobr and webhook faces over the sandbox bank's books, mounted on its HTTPS server. */
@Module({
  imports: [SandboxBankModule, SandboxPspModule],
  providers: [SandboxCobrStore, SandboxPspCallbacks, SandboxCobrSettlement, SandboxPspWebhookHandlers, SandboxPspCobrHandlers],
  exports: [SandboxPspCobrHandlers, SandboxPspWebhookHandlers, SandboxCobrSettlement, SandboxPspCallbacks],
})
export class SandboxPspCobrModule implements OnModuleInit {
  constructor(
    private readonly server: SandboxPspServer,
    private readonly cobr: SandboxPspCobrHandlers,
    private readonly webhooks: SandboxPspWebhookHandlers,
  ) {}

  onModuleInit(): void {
    this.cobr.register(this.server);
    this.webhooks.register(this.server);
  }
}
