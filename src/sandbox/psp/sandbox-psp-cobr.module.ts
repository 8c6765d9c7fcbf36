import { Module } from '@nestjs/common';
import { SandboxBankModule } from '../bank/sandbox-bank.module';
import { SandboxPspCallbacks } from './psp-cobr.events';
import { SandboxPspCobrHandlers } from './psp-cobr.handlers';
import { SandboxCobrSettlement } from './psp-cobr.settlement';
import { SandboxCobrStore } from './psp-cobr.store';
import { SandboxPspWebhookHandlers } from './psp-webhooks.handlers';

/**
 * The sandbox PSP's cobr and webhook faces over the sandbox bank's books. The handlers are
 * registered on psp-core's SandboxPspServer (its onModuleInit) once merged.
 */
@Module({
  imports: [SandboxBankModule],
  providers: [SandboxCobrStore, SandboxPspCallbacks, SandboxCobrSettlement, SandboxPspWebhookHandlers, SandboxPspCobrHandlers],
  exports: [SandboxPspCobrHandlers, SandboxPspWebhookHandlers, SandboxCobrSettlement, SandboxPspCallbacks],
})
export class SandboxPspCobrModule {}
