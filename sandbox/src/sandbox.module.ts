import { Module } from '@nestjs/common';
import { SandboxBankModule } from './bank/sandbox-bank.module';
import { SandboxPspModule } from './psp/sandbox-psp.module';
import { SandboxPspCobModule } from './psp/sandbox-psp-cob.module';
import { SandboxPspCobrModule } from './psp/sandbox-psp-cobr.module';
import { SandboxClock } from './sandbox-clock';
import { SandboxClockController } from './sandbox-clock.controller';

/**
 * The sandbox: the simulated bank (and acquirer) that stand behind the provider by default, and
 * the test clock. It never imports a feature module: features are reached over HTTP and through
 * DayPassedSignal. Each simulated party is its own module imported here.
 */
@Module({
  imports: [SandboxBankModule, SandboxPspModule, SandboxPspCobModule, SandboxPspCobrModule],
  controllers: [SandboxClockController],
  providers: [SandboxClock],
})
export class SandboxModule {}
