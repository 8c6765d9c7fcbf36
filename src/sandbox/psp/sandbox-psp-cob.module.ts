import { Module } from '@nestjs/common';
import { SandboxAcquirerModule } from '../acquirer/sandbox-acquirer.module';
import { PspCobHandlers } from './psp-cob.handlers';
import { PspCobStore } from './psp-cob.store';
import { SandboxPspCobLocationsController } from './psp-cob-locations.controller';
import { PspPixHandlers } from './psp-pix.handlers';
import { SandboxPspPixFace } from './psp-pix.face';
import { PspPixCallbacks } from './psp-pix.callbacks';
import { PspReceiver } from './psp-receiver';
import { SandboxPspModule } from './sandbox-psp.module';

/**
 * The sandbox PSP's charges of links and boletos (cob, cobv, loc, pix, webhook/{chave}) over the
 * sandbox's Pix charges (one state with the acquirer face), and the open locations their
 * dynamic BR Codes carry.
 */
@Module({
  imports: [SandboxPspModule, SandboxAcquirerModule],
  controllers: [SandboxPspCobLocationsController],
  providers: [PspReceiver, PspCobStore, PspCobHandlers, PspPixHandlers, PspPixCallbacks, SandboxPspPixFace],
})
export class SandboxPspCobModule {}
