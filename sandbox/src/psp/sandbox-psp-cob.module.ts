import { Module, OnModuleInit } from '@nestjs/common';
import { DayPassedSignal } from '../../../kernel/platform/clock/clock';
import { SandboxAcquirerModule } from '../acquirer/sandbox-acquirer.module';
import { SandboxConfig } from '../sandbox.config';
import { PspCobHandlers } from './psp-cob.handlers';
import { PspCobStore } from './psp-cob.store';
import { SandboxPspCobLocationsController } from './psp-cob-locations.controller';
import { SandboxPspControlController } from './psp-control.controller';
import { PspDevolucaoHandlers } from './psp-devolucao.handlers';
import { PspDevolucaoSettlement } from './psp-devolucao.settlement';
import { PspDevolucaoStore } from './psp-devolucao.store';
import { PspPayouts } from './psp-payouts';
import { PspPixHandlers } from './psp-pix.handlers';
import { SandboxPspPixFace } from './psp-pix.face';
import { PspPixCallbacks } from './psp-pix.callbacks';
import { PspReceiver } from './psp-receiver';
import { SandboxPspModule } from './sandbox-psp.module';

/**
 * The sandbox PSP's charges of links and boletos (cob, cobv, loc, pix, webhook/{chave}) over the
 * sandbox's Pix charges (one state with the acquirer face), and the open locations their
 * dynamic BR Codes carry; the devoluções of the Pix it received (and MED), and payouts.
 */
@Module({
  imports: [SandboxPspModule, SandboxAcquirerModule],
  controllers: [SandboxPspCobLocationsController, SandboxPspControlController],
  providers: [
    PspReceiver,
    PspCobStore,
    PspCobHandlers,
    PspPixHandlers,
    PspPixCallbacks,
    SandboxPspPixFace,
    PspDevolucaoStore,
    PspDevolucaoHandlers,
    PspDevolucaoSettlement,
    PspPayouts,
  ],
})
export class SandboxPspCobModule implements OnModuleInit {
  constructor(
    private readonly dayPassed: DayPassedSignal,
    private readonly devolucoes: PspDevolucaoSettlement,
    private readonly sandbox: SandboxConfig,
  ) {}

  /** A day of the test clock is a tick for devoluções too (after the day's cobr settlement). */
  onModuleInit(): void {
    if (this.sandbox.enabled) this.dayPassed.subscribe('sandbox.psp-devolucoes', async () => void (await this.devolucoes.tick()), 22);
  }
}
