import { Module } from '@nestjs/common';
import { SandboxBankApiController, SandboxBankPagesController, SandboxPayerController } from './sandbox-bank.controllers';
import { SandboxBankEvents } from './sandbox-bank.events';
import { SandboxBankPages } from './sandbox-bank.pages';
import { SandboxBankService } from './sandbox-bank.service';
import { SandboxBankStore } from './sandbox-bank.store';

/** The simulated payer's bank behind the provider client (Pix Automático). */
@Module({
  controllers: [SandboxBankApiController, SandboxBankPagesController, SandboxPayerController],
  providers: [SandboxBankStore, SandboxBankEvents, SandboxBankService, SandboxBankPages],
  exports: [SandboxBankStore, SandboxBankEvents, SandboxBankService],
})
export class SandboxBankModule {}
